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

const trusts = (list: BlockList, a: string) => {
  const family = isIP(a);
  return family !== 0 && list.check(a, family === 6 ? "ipv6" : "ipv4");
};

export function isLoopbackAddress(a: string): boolean {
  const s = normaliseAddress(a);
  return /^127\.\d+\.\d+\.\d+$/.test(s) || s === "::1";
}

export interface ClientAddress {
  /** the client's address as far as trusted hops tell */
  address: string;
  /** the request came from this machine itself: a loopback peer that forwarded nothing, or trusted hops ending on loopback */
  local: boolean;
}

/**
 * The client's address from the socket peer and the X-Forwarded-For chain: each right-most hop is believed only
 * while the address that reported it is a trusted proxy. A loopback peer that is not a trusted proxy but sends
 * forwarding headers is a proxy nobody configured (or a forgery): its request does not count as local.
 */
export function resolveClientAddress(peer: string, forwardedFor: string | undefined, trusted: BlockList, hasOtherForwarding = false): ClientAddress {
  let current = normaliseAddress(peer || "unknown");
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((s) => normaliseAddress(s))
    .filter(Boolean);
  const forwarded = hops.length > 0 || hasOtherForwarding;
  if (!trusts(trusted, current)) return { address: current, local: isLoopbackAddress(current) && !forwarded };
  while (hops.length && trusts(trusted, current)) {
    const next = hops.pop()!;
    if (!isIP(next)) break;
    current = next;
  }
  return { address: current, local: isLoopbackAddress(current) };
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
