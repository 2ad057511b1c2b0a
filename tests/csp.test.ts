// The pages' Content-Security-Policy (lib/core/csp.ts, set by proxy.ts): scripts only with the request's nonce, no
// string evaluated as script in production, nothing from another origin, no framing; every nonce fresh.
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, newNonce } from "../lib/core/csp";

const directives = (policy: string) => new Map(policy.split("; ").map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)]));

describe("the pages' Content-Security-Policy", () => {
  it("runs scripts only with the nonce, evaluates no string, loads and frames nothing from elsewhere", () => {
    const nonce = newNonce();
    const d = directives(contentSecurityPolicy(nonce));
    expect(d.get("script-src")).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", "'wasm-unsafe-eval'"]);
    expect(d.get("script-src")).not.toContain("'unsafe-inline'");
    expect(d.get("script-src")).not.toContain("'unsafe-eval'");
    expect(d.get("default-src")).toEqual(["'self'"]);
    expect(d.get("connect-src")).toEqual(["'self'"]);
    expect(d.get("object-src")).toEqual(["'none'"]);
    expect(d.get("frame-ancestors")).toEqual(["'none'"]);
    expect(d.get("form-action")).toEqual(["'self'"]);
    expect(d.get("base-uri")).toEqual(["'self'"]);
    // Only a development server (React's debugging) evaluates strings.
    expect(directives(contentSecurityPolicy(nonce, { dev: true })).get("script-src")).toContain("'unsafe-eval'");
  });

  it("makes a fresh, unguessable nonce each time", () => {
    const seen = new Set(Array.from({ length: 1000 }, () => newNonce()));
    expect(seen.size).toBe(1000);
    for (const n of seen) expect(Buffer.from(n, "base64")).toHaveLength(16);
  });
});
