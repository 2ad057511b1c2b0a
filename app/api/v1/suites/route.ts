import { jsonRead } from "@/lib/server/http";
import { listSuites } from "@/lib/server/api/v1";

export const GET = jsonRead("results.read", listSuites);
