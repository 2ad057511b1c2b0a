import { jsonRead } from "@/lib/server/http";
import { designApi } from "@/lib/server/api/log";

/** The run's design statement, signed at launch before any provider call, with its inclusion proof in the log. */
export const GET = jsonRead<{ id: string }>("results.read", (_query, { params }) => designApi(params.id));
