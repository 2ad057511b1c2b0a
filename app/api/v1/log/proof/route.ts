import { jsonRead } from "@/lib/server/http";
import { proofApi } from "@/lib/server/api/log";

/** A run's design statement's inclusion proof in the log (hashes only: public). */
export const GET = jsonRead("public", (query) => proofApi(query));
