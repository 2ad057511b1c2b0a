// The Content-Security-Policy of every page the app serves (proxy.ts sets it, with a fresh nonce per request; Next.js
// puts the nonce on its own scripts). Scripts run only with the nonce ('strict-dynamic': what they load is trusted
// through them); nothing from another origin is loaded, framed, posted to or connected to. WebAssembly may compile
// (onnxruntime-web on the Label page, sql.js in /verify's worker) but no string is ever evaluated as script; workers
// come from this origin (or blob: URLs made here). Styles may be inline (React and Recharts set style attributes, the
// dialogs' scroll lock injects a style element without a nonce): CSS runs no script, and no other origin is reachable to
// read anything out through it. Client-safe (no I/O).

/** A nonce for one response: 16 random bytes, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

export function contentSecurityPolicy(nonce: string, opts: { dev?: boolean } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic' 'wasm-unsafe-eval'${opts.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
