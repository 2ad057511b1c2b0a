import { jsonRead } from "@/lib/server/http";
import { consistencyApi } from "@/lib/server/api/log";

/** The consistency proof between two sizes of the log (hashes only: public). */
export const GET = jsonRead("public", (query) => consistencyApi(query));
