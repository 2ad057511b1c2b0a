// Who is on the other end of a request. Headers are the client's to forge, so the address is decided once, by the
// HTTP server that owns the socket (scripts/serve.ts): the socket's peer, or — only when that peer is a proxy the
// operator trusts (FOF_TRUSTED_PROXIES) — the address that proxy reports in X-Forwarded-For, walked from the right.
// The server writes the result into X-Forwarded-For (one address) and into a header signed with a per-process
// secret; pages and actions read the signed header only. Without it (`next dev`, a bare `next start`), nothing is
// "from this machine" and the address is unknown.
import { BlockList, isIP } from "node:net";

/** Headers the serving process sets after stripping any the client sent. */
export const CLIENT_HEADER = "x-fof-client";
export const CLIENT_SECRET_ENV = "FOF_CLIENT_HEADER_SECRET";

/** Operator-named proxies: comma-separated addresses or CIDR ranges ("127.0.0.1, ::1, 10.0.0.0/8"). */
export function parseTrustedProxies(spec: string | undefined): BlockList {
  const list = new BlockList();
  for (const raw of (spec ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [addr, bits] = raw.split("/");
    const family = isIP(addr);
    if (!family) throw new Error(`FOF_TRUSTED_PROXIES: "${raw}" is not an IP address or CIDR range`);
    const type = family === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(addr, type);
    else {
      const n = Number(bits);
      if (!Number.isInteger(n) || n < 0 || n > (family === 6 ? 128 : 32)) throw new Error(`FOF_TRUSTED_PROXIES: bad prefix length in "${raw}"`);
      list.addSubnet(addr, n, type);
    }
  }
  return list;
}

/** IPv4-mapped IPv6 (::ffff:1.2.3.4) as plain IPv4, so one rule covers both spellings. */
function normaliseAddress(a: string): string {
  const s = a.trim().replace(/^\[|\]$/g, "");
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(s);
  return m ? m[1] : s;
}

/**
 * One hop as proxies write it — "203.0.113.9", "203.0.113.9:51234", "2001:db8::1", "[2001:db8::1]:443", quoted as
 * in RFC 7239 — as a bare address; null when it is anything else ("unknown", an obfuscated name, a host name, junk).
 */
export function parseHop(raw: string): string | null {
  let s = raw.trim();
  if (s.length > 2 && s.startsWith('"') && s.endsWith('"')) s = s.slice(1, -1).trim();
  if (s.length > 64) return null;
  let addr: string | null = null;
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(s);
  if (bracketed) addr = isIP(bracketed[1]) === 6 ? bracketed[1] : null;
  else if (isIP(s)) addr = s;
  else {
    const v4port = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/.exec(s);
    if (v4port && isIP(v4port[1]) === 4) addr = v4port[1];
  }
  if (!addr) return null;
  const out = normaliseAddress(addr);
  return isIP(out) ? out : null;
}

/** The `for=` of each element of an RFC 7239 Forwarded header, left to right ("" where an element has none). */
function forwardedFor(header: string): string[] {
  return header.split(",").map((element) => {
    for (const pair of element.split(";")) {
      const eq = pair.indexOf("=");
      if (eq > 0 && pair.slice(0, eq).trim().toLowerCase() === "for") return pair.slice(eq + 1).trim();
    }
    return "";
  });
}

const trusts = (list: BlockList, a: string) => {
  const family = isIP(a);
  return family !== 0 && list.check(a, family === 6 ? "ipv6" : "ipv4");
};

export function isLoopbackAddress(a: string): boolean {
  const s = normaliseAddress(a);
  return /^127\.\d+\.\d+\.\d+$/.test(s) || s === "::1";
}

export interface ClientAddress {
  /** the client's address as far as trusted hops tell; "unknown" when a trusted proxy did not say readably */
  address: string;
  /** the request came from this machine itself: a loopback peer that forwarded nothing, or trusted hops ending on loopback */
  local: boolean;
}

/** The forwarding headers a request carried (absent: undefined; several of one kind joined with ","). */
export interface Forwarding {
  xForwardedFor?: string;
  forwarded?: string;
  xRealIp?: string;
}

const UNKNOWN: ClientAddress = { address: "unknown", local: false };

/**
 * The client's address from the socket peer and the forwarding headers. A peer nobody trusts is the client (and is
 * local only when it forwarded nothing: a loopback proxy nobody configured, or a forgery, is not this machine). A
 * trusted proxy's report is believed hop by hop from the right while the reporter is trusted — X-Forwarded-For,
 * else RFC 7239 Forwarded, else X-Real-IP (nginx's `$remote_addr`). Whatever a trusted proxy reports must be
 * readable and consistent: an unreadable hop ("unknown", a name, junk), an empty header, or headers naming different
 * clients make the address unknown — never local, which would hand a fresh instance's setup to anyone.
 */
export function resolveClientAddress(peer: string, forwarding: Forwarding, trusted: BlockList): ClientAddress {
  const current = parseHop(peer) ?? "unknown";
  const chains: string[][] = [];
  if (forwarding.xForwardedFor !== undefined) chains.push(forwarding.xForwardedFor.split(","));
  if (forwarding.forwarded !== undefined) chains.push(forwardedFor(forwarding.forwarded));
  if (forwarding.xRealIp !== undefined) chains.push([forwarding.xRealIp]);
  if (!trusts(trusted, current)) return { address: current, local: isLoopbackAddress(current) && chains.length === 0 };
  // A trusted address that forwarded nothing is a direct connection (a browser or curl on that machine).
  if (chains.length === 0) return { address: current, local: isLoopbackAddress(current) };
  // Every header must name the same immediate client of the proxy (a client-written X-Real-IP or Forwarded that a
  // proxy passed through unchanged disagrees with the X-Forwarded-For it appended).
  const first = chains.map((c) => parseHop(c.at(-1) ?? ""));
  if (first.some((a) => a === null) || new Set(first).size !== 1) return UNKNOWN;
  // Then further left through trusted hops, along the longest chain (X-Forwarded-For first).
  const hops = [...chains.reduce((a, c) => (c.length > a.length ? c : a))];
  let client = current;
  while (hops.length && trusts(trusted, client)) {
    const next = parseHop(hops.pop()!);
    if (!next) return UNKNOWN;
    client = next;
  }
  return { address: client, local: isLoopbackAddress(client) };
}

/** The signed value the server sets: secret, address, local flag. */
export function clientHeaderValue(secret: string, c: ClientAddress): string {
  return `${secret} ${c.address} ${c.local ? 1 : 0}`;
}

/** What the serving process decided about this request, or null when the header is absent or not its own. */
export function clientFromHeaders(headers: Headers, secret: string | undefined = process.env[CLIENT_SECRET_ENV]): ClientAddress | null {
  const v = headers.get(CLIENT_HEADER);
  if (!v || !secret || secret.length < 16) return null;
  const [s, address, local] = v.split(" ");
  if (s !== secret || !address) return null;
  return { address, local: local === "1" };
}
