import { jsonRead } from "@/lib/server/http";
import { readContentSetApi } from "@/lib/server/api/content-sets";

export const GET = jsonRead<{ ref: string }>("results.read", (query, { params, viewer }) => readContentSetApi(decodeURIComponent(params.ref), query, viewer));
