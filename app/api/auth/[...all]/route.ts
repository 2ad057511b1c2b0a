import { auth } from "@/lib/auth/server";
import { errorResponse } from "@/lib/server/http";

/**
 * better-auth's own endpoints — only those the app uses: sign-in, sign-out and the session. Public by design: the
 * library checks the request's origin against the trusted origins and rate-limits sign-in (per client and, through
 * our hook, per account); sign-up is closed. Every other endpoint better-auth ships (update-user, change-email,
 * delete-user, …) answers 404: names, roles and passwords change through the app's own validated, audited actions.
 */
const ALLOWED: Record<string, ReadonlySet<string>> = {
  GET: new Set(["/get-session"]),
  POST: new Set(["/sign-in/email", "/sign-out"]),
};

function allowed(req: Request): boolean {
  const path = new URL(req.url).pathname.replace(/^\/api\/auth/, "").replace(/\/+$/, "");
  return ALLOWED[req.method]?.has(path) ?? false;
}

const notFound = () => Response.json({ error: "not found" }, { status: 404 });

/**
 * better-auth answers its own errors (wrong password 401, limits 429); anything else it throws to us (onAPIError.throw
 * in lib/auth/server.ts), so a database held by another writer answers 503 + Retry-After, as every other write does,
 * instead of an empty 500.
 */
async function handle(req: Request): Promise<Response> {
  if (!allowed(req)) return notFound();
  try {
    return await auth().handler(req);
  } catch (e) {
    return errorResponse(e);
  }
}

export const GET = handle;
export const POST = handle;
