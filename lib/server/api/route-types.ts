// One route of the versioned API as the OpenAPI table lists it (./openapi.ts and the feature tables it gathers).
import type { z } from "zod";
import type { Access } from "../http";

export interface ApiRoute {
  method: "get" | "post" | "put";
  /** OpenAPI path, parameters in braces */
  path: string;
  access: Access;
  summary: string;
  description?: string;
  query?: z.ZodType;
  body?: z.ZodType;
  /** a body that is not JSON (a streamed file) */
  rawBody?: string;
  /** the success status and what it carries */
  ok: { status: number; description: string; contentTypes?: string[] };
}
