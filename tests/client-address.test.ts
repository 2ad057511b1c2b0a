// The client's address is decided from the socket, never from headers a client writes: forged X-Forwarded-For from
// an untrusted peer is ignored, a trusted proxy's report is believed hop by hop, and only the serving process's
// signed header tells pages who is asking.
import { describe, expect, it } from "vitest";
import { clientFromHeaders, clientHeaderValue, isLoopbackAddress, parseTrustedProxies, resolveClientAddress } from "../lib/auth/client-address";

const none = parseTrustedProxies(undefined);
const caddy = parseTrustedProxies("127.0.0.1, ::1");

describe("client address", () => {
  it("ignores forwarding headers from a peer nobody trusts", () => {
    expect(resolveClientAddress("203.0.113.9", "127.0.0.1", none)).toEqual({ address: "203.0.113.9", local: false });
    expect(resolveClientAddress("::ffff:203.0.113.9", "127.0.0.1, 127.0.0.1", caddy)).toEqual({ address: "203.0.113.9", local: false });
  });

  it("counts a loopback peer as local only when it forwarded nothing (a proxy nobody configured is not this machine)", () => {
    expect(resolveClientAddress("127.0.0.1", undefined, none)).toEqual({ address: "127.0.0.1", local: true });
    expect(resolveClientAddress("::1", undefined, none)).toEqual({ address: "::1", local: true });
    expect(resolveClientAddress("127.0.0.1", "198.51.100.7", none)).toEqual({ address: "127.0.0.1", local: false });
    expect(resolveClientAddress("127.0.0.1", undefined, none, true)).toEqual({ address: "127.0.0.1", local: false });
  });

  it("believes a trusted proxy's report, right to left, and stops at the first untrusted hop", () => {
    expect(resolveClientAddress("127.0.0.1", "198.51.100.7", caddy)).toEqual({ address: "198.51.100.7", local: false });
    // The client wrote "127.0.0.1" itself before reaching Caddy; Caddy appended the real address.
    expect(resolveClientAddress("127.0.0.1", "127.0.0.1, 198.51.100.7", caddy)).toEqual({ address: "198.51.100.7", local: false });
    const chain = parseTrustedProxies("127.0.0.1, 10.0.0.0/8");
    expect(resolveClientAddress("127.0.0.1", "192.0.2.1, 198.51.100.7, 10.1.2.3", chain).address).toBe("198.51.100.7");
    // A browser on the proxy's own machine is local.
    expect(resolveClientAddress("127.0.0.1", "127.0.0.1", caddy)).toEqual({ address: "127.0.0.1", local: true });
    expect(resolveClientAddress("127.0.0.1", "not-an-ip", caddy).address).toBe("127.0.0.1");
  });

  it("refuses a malformed FOF_TRUSTED_PROXIES", () => {
    expect(() => parseTrustedProxies("caddy")).toThrow(/not an IP address/);
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow(/prefix/);
    expect(isLoopbackAddress("::ffff:127.0.0.2")).toBe(true);
  });

  it("reads only the serving process's own signed header", () => {
    const secret = "s".repeat(32);
    const h = new Headers({ "x-fof-client": clientHeaderValue(secret, { address: "127.0.0.1", local: true }) });
    expect(clientFromHeaders(h, secret)).toEqual({ address: "127.0.0.1", local: true });
    expect(clientFromHeaders(h, "t".repeat(32))).toBeNull();
    // No server secret (next dev, a bare next start): nothing is local, whatever the headers say.
    expect(clientFromHeaders(new Headers({ "x-fof-client": "x 127.0.0.1 1", "x-forwarded-for": "127.0.0.1", host: "127.0.0.1:3000" }), undefined)).toBeNull();
  });
});

describe("request target", async () => {
  const { malformedTarget } = await import("../lib/net/request-target");
  it("refuses a path whose percent-encoding does not decode, and nothing else", () => {
    expect(malformedTarget("/runs/%ff")).toMatch(/percent-encoding/);
    expect(malformedTarget("/runs/%E0%A4%A")).toMatch(/percent-encoding/);
    expect(malformedTarget("/runs/abc?x=%ff")).toBeNull();
    expect(malformedTarget("/runs/caf%C3%A9")).toBeNull();
    expect(malformedTarget("/" + "a".repeat(9000))).toMatch(/longer/);
  });
});
