import { jsonRead } from "@/lib/server/http";
import { checkpointApi } from "@/lib/server/api/log";

/** The transparency log's signed checkpoint now: its size, root hash and time (hashes only: public). */
export const GET = jsonRead("public", () => checkpointApi());
