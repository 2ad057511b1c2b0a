// Turning domain errors into HTTP answers for the route handlers: validation → 400 with the reasons, domain errors
// with their status, anything else rethrown (Next logs it and answers 500 without details).
import { z } from "zod";
import { ReviewError } from "./review";

export function errorResponse(e: unknown): Response {
  if (e instanceof z.ZodError) return Response.json({ error: z.prettifyError(e) }, { status: 400 });
  if (e instanceof SyntaxError) return Response.json({ error: "invalid JSON" }, { status: 400 });
  if (e instanceof ReviewError) return Response.json({ error: e.message }, { status: e.status });
  throw e;
}
