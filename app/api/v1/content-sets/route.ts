import { jsonRead, jsonWrite } from "@/lib/server/http";
import { CONTENT_IMPORT_MAX_BYTES, importContentSetApi, listContentSetsApi } from "@/lib/server/api/content-sets";

export const GET = jsonRead("results.read", (query) => listContentSetsApi(query));
export const POST = jsonWrite("content.author", (body, { viewer }) => importContentSetApi(body, viewer), { maxBytes: CONTENT_IMPORT_MAX_BYTES });
