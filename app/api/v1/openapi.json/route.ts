import { openApiDocument } from "@/lib/server/api/openapi";
import { jsonRead } from "@/lib/server/http";
import { publicUrl } from "@/lib/core/public-url";

/** The OpenAPI 3.1 document of /api/v1, generated from the handlers' own schemas. */
export const GET = jsonRead("public", async () => openApiDocument(publicUrl()));
