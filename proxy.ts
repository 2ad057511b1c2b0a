// Every page gets a Content-Security-Policy with its own nonce (lib/core/csp.ts): Next.js reads the nonce from the
// request's policy header and puts it on the scripts it renders, so only those run. API routes, the static files and
// the model and verifier files are left out here and given a policy under which nothing runs (next.config.mjs).
import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, newNonce } from "./lib/core/csp";

export function proxy(request: NextRequest) {
  const nonce = newNonce();
  const policy = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development" });
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

// Every path but the API, the static files and the model and verifier files, whatever the request's headers (a
// prefetch gets its policy too). API routes, the public key and the model files get a policy that runs nothing
// (next.config.mjs): an error page there is HTML too.
export const config = {
  matcher: ["/((?!api/|_next/static|_next/image|ort/|models/|verifier/|favicon\\.svg|metrics$|\\.well-known/).*)"],
};
