// The client's address is decided from the socket, never from headers a client writes: forged X-Forwarded-For from
// an untrusted peer is ignored, a trusted proxy's report is believed hop by hop, and only the serving process's
// signed header tells pages who is asking.
import { describe, expect, it } from "vitest";
import { clientFromHeaders, clientHeaderValue, isLoopbackAddress, parseHop, parseTrustedProxies, resolveClientAddress } from "../lib/auth/client-address";

const none = parseTrustedProxies(undefined);
const caddy = parseTrustedProxies("127.0.0.1, ::1");
const xff = (v: string) => ({ xForwardedFor: v });

describe("client address", () => {
  it("ignores forwarding headers from a peer nobody trusts", () => {
    expect(resolveClientAddress("203.0.113.9", xff("127.0.0.1"), none)).toEqual({ address: "203.0.113.9", local: false });
    expect(resolveClientAddress("::ffff:203.0.113.9", xff("127.0.0.1, 127.0.0.1"), caddy)).toEqual({ address: "203.0.113.9", local: false });
  });

  it("counts a loopback peer as local only when it forwarded nothing (a proxy nobody configured is not this machine)", () => {
    expect(resolveClientAddress("127.0.0.1", {}, none)).toEqual({ address: "127.0.0.1", local: true });
    expect(resolveClientAddress("::1", {}, none)).toEqual({ address: "::1", local: true });
    expect(resolveClientAddress("127.0.0.1", xff("198.51.100.7"), none)).toEqual({ address: "127.0.0.1", local: false });
    expect(resolveClientAddress("127.0.0.1", { xRealIp: "203.0.113.5" }, none)).toEqual({ address: "127.0.0.1", local: false });
  });

  it("believes a trusted proxy's report, right to left, and stops at the first untrusted hop", () => {
    expect(resolveClientAddress("127.0.0.1", xff("198.51.100.7"), caddy)).toEqual({ address: "198.51.100.7", local: false });
    // The client wrote "127.0.0.1" itself before reaching Caddy; Caddy appended the real address.
    expect(resolveClientAddress("127.0.0.1", xff("127.0.0.1, 198.51.100.7"), caddy)).toEqual({ address: "198.51.100.7", local: false });
    const chain = parseTrustedProxies("127.0.0.1, 10.0.0.0/8");
    expect(resolveClientAddress("127.0.0.1", xff("192.0.2.1, 198.51.100.7, 10.1.2.3"), chain).address).toBe("198.51.100.7");
    // A browser on the proxy's own machine is local.
    expect(resolveClientAddress("127.0.0.1", xff("127.0.0.1"), caddy)).toEqual({ address: "127.0.0.1", local: true });
  });

  it("never takes a trusted proxy's unreadable, missing or conflicting report as this machine", () => {
    // What the hostile test sent through the documented FOF_TRUSTED_PROXIES=127.0.0.1,::1: each was "local".
    for (const f of [
      xff("unknown"),
      xff("not-an-ip"),
      xff(""),
      xff("198.51.100.7, unknown"),
      xff("localhost"),
      { xRealIp: "unknown" },
      { forwarded: "for=unknown" },
      { forwarded: 'for="_hidden"' },
      { forwarded: "proto=https" },
      // a client-written X-Real-IP / Forwarded passed through beside the X-Forwarded-For the proxy appended
      { xForwardedFor: "198.51.100.7", xRealIp: "127.0.0.1" },
      { xForwardedFor: "198.51.100.7", forwarded: "for=127.0.0.1" },
    ])
      expect(resolveClientAddress("127.0.0.1", f, caddy), JSON.stringify(f)).toEqual({ address: "unknown", local: false });
    // A client hop that is readable but further left than an unreadable one is never reached.
    expect(resolveClientAddress("127.0.0.1", xff("127.0.0.1, garbage, 10.0.0.1"), parseTrustedProxies("127.0.0.1, 10.0.0.0/8")).local).toBe(false);
  });

  it("reads hops the way proxies write them: ip:port, [v6]:port, RFC 7239 Forwarded, nginx's X-Real-IP", () => {
    expect(resolveClientAddress("127.0.0.1", xff("198.51.100.7:51234"), caddy)).toEqual({ address: "198.51.100.7", local: false });
    expect(resolveClientAddress("127.0.0.1", xff("1.2.3.4:80"), caddy)).toEqual({ address: "1.2.3.4", local: false });
    expect(resolveClientAddress("::1", xff("[2001:db8::1]:443"), caddy)).toEqual({ address: "2001:db8::1", local: false });
    expect(resolveClientAddress("::1", xff("2001:db8::1"), caddy)).toEqual({ address: "2001:db8::1", local: false });
    expect(resolveClientAddress("127.0.0.1", { xRealIp: "203.0.113.5" }, caddy)).toEqual({ address: "203.0.113.5", local: false });
    expect(resolveClientAddress("127.0.0.1", { forwarded: 'for=192.0.2.60;proto=http, for="[2001:db8:cafe::17]:4711"' }, caddy)).toEqual({
      address: "2001:db8:cafe::17",
      local: false,
    });
    // nginx's usual pair: X-Real-IP $remote_addr and X-Forwarded-For $proxy_add_x_forwarded_for agree.
    expect(resolveClientAddress("127.0.0.1", { xForwardedFor: "203.0.113.5", xRealIp: "203.0.113.5" }, caddy).address).toBe("203.0.113.5");
    // A browser on the proxy's machine, told in any of these ways, is local.
    expect(resolveClientAddress("127.0.0.1", xff("127.0.0.1:40000"), caddy)).toEqual({ address: "127.0.0.1", local: true });
    expect(resolveClientAddress("127.0.0.1", { xRealIp: "::1" }, caddy)).toEqual({ address: "::1", local: true });
    expect(parseHop("[::ffff:127.0.0.1]:80")).toBe("127.0.0.1");
    for (const bad of ["", "unknown", "1.2.3.4:", "[1.2.3.4]:80", "1.2.3.4:80:90", "example.org", '"', "[::1"]) expect(parseHop(bad), bad).toBeNull();
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

  it("refuses any path segment longer than an id could be, before any page or route runs", () => {
    // The hostile test's "/runs/<8.1 KiB id>": shorter ids were 404 at once, longer ones 400; now every one is 400.
    expect(malformedTarget(`/runs/${"a".repeat(8100)}`)).toMatch(/path segment longer than 256/);
    expect(malformedTarget(`/api/v1/runs/${"a".repeat(257)}/scores`)).toMatch(/path segment/);
    expect(malformedTarget(`/runs/${"a".repeat(256)}?q=${"b".repeat(1000)}`)).toBeNull();
  });

  it("answers 408 to a request whose header block never ends (curl's unterminated Cookie line past 8 KiB of URL)", async () => {
    const http = await import("node:http");
    const net = await import("node:net");
    const { limitRequestTimes } = await import("../lib/net/request-target");
    let handled = 0;
    const server = http.createServer({ connectionsCheckingInterval: 50 }, (_req, res) => {
      handled++;
      res.end();
    });
    limitRequestTimes(server, { headersTimeoutMs: 200 });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const port = (server.address() as { port: number }).port;
    const answer = await new Promise<string>((resolve) => {
      const s = net.connect(port, "127.0.0.1", () => s.write(`GET /runs/${"a".repeat(8100)} HTTP/1.1\r\nHost: x\r\nCookie: \r\n`));
      let got = "";
      s.on("data", (d) => (got += d.toString()));
      s.on("close", () => resolve(got));
    });
    server.close();
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(handled).toBe(0);
  });
});
