import { auth } from "@/lib/auth/server";
import { SSO_PROVIDER_ID } from "@/lib/auth/sso-messages";
import { withSsoRequest } from "@/lib/auth/sso";
import { errorResponse } from "@/lib/server/http";

/**
 * better-auth's own endpoints — only those the app uses: sign-in (email + password, or single sign-on: its start and
 * the provider's callback), sign-out and the session. Public by design: the
 * library checks the request's origin against the trusted origins and rate-limits sign-in (per client and, through
 * our hook, per account); sign-up is closed (single sign-on's just-in-time accounts are decided in lib/auth/sso-apply.ts). Every other endpoint better-auth ships (update-user, change-email,
 * delete-user, …) answers 404: names, roles and passwords change through the app's own validated, audited actions.
 */
const ALLOWED: Record<string, ReadonlySet<string>> = {
  GET: new Set(["/get-session", `/callback/${SSO_PROVIDER_ID}`]),
  POST: new Set(["/sign-in/email", "/sign-in/social", "/sign-out"]),
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
    // Room for a single sign-on's decision, from the identity check to the session it starts (lib/auth/sso.ts).
    return await withSsoRequest(() => auth().handler(req));
  } catch (e) {
    return errorResponse(e);
  }
}

export const GET = handle;
export const POST = handle;
