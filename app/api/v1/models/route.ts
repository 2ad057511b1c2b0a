import { jsonRead } from "@/lib/server/http";
import { listModels } from "@/lib/server/api/v1";

export const GET = jsonRead("results.read", listModels);
