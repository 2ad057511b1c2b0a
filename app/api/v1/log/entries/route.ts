import { jsonRead } from "@/lib/server/http";
import { entriesApi } from "@/lib/server/api/log";

/** The log's entries between two indices: every run launched then, its models and its signed design statement. */
export const GET = jsonRead("results.read", (query) => entriesApi(query));
