// The outbound endpoint policy: every server-side request whose address a model's settings or a provider's answer
// can steer (base URLs, image URLs a provider returns, webhooks) may reach public addresses only. Private,
// loopback, link-local (cloud metadata at 169.254.169.254), unique-local and other special ranges are refused
// unless the operator allows them: FOF_ALLOWED_ENDPOINTS (comma-separated IPs, CIDR ranges or host names, e.g. a
// local vLLM: "127.0.0.1" or "vllm.internal", every port; or URLs, their scheme + host + port only) and the base
// URLs the operator bound credentials to (lib/env.ts), each its scheme + host + port only.
// The check runs after DNS resolution, on every new connection (a name that re-resolves to a private address is
// caught), and on literal IP hosts before connecting.
import { BlockList, isIP } from "node:net";
import dns from "node:dns";
import type { LookupFunction } from "node:net";
import { declaredCredentials } from "../env";

/** Thrown when the policy refuses an address: never worth retrying. */
export class OutboundRefusedError extends Error {
  readonly code = "FOF_OUTBOUND_REFUSED";
}

// Ranges nobody on the public internet has (RFC 6890 and friends).
const SPECIAL = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  SPECIAL.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  SPECIAL.addSubnet(net, bits, "ipv6");

const familyOf = (a: string) => (isIP(a) === 6 ? "ipv6" : "ipv4");
const unmapped = (a: string) => /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a)?.[1] ?? a;

/** Whether an address is outside the public internet (private, loopback, link-local, reserved…). */
export function isSpecialAddress(address: string): boolean {
  const a = unmapped(address.replace(/^\[|\]$/g, ""));
  if (!isIP(a)) return true;
  return SPECIAL.check(a, familyOf(a));
}

/** Where a connection goes besides its address: the scheme and the port (a binding to a URL allows only those). */
export interface OutboundTarget {
  protocol: string;
  port: string;
}

/** The scheme and port a URL connects to (its explicit port, else the scheme's default). */
export function targetOf(url: URL): OutboundTarget {
  return { protocol: url.protocol, port: url.port || (url.protocol === "https:" ? "443" : "80") };
}

export interface OutboundPolicy {
  /**
   * Whether a resolved address may be connected to for this host name (and, for allowances bound to a URL, this
   * scheme and port: without a target only whole-address allowances count).
   */
  allows(host: string, address: string, target?: OutboundTarget): boolean;
}

/**
 * The policy from an allow-list. A bare address, range or host name ("127.0.0.1", "10.0.0.0/8", "vllm.internal")
 * allows that address on every port: an operator's explicit word. A URL ("https://llm.lan:8000/v1", and every base
 * URL a credential is bound to) allows only its scheme, host and port: binding a key to a local model's endpoint does
 * not open the rest of that machine (the app itself, a database, other services on loopback).
 */
export function outboundPolicy(allowed: readonly string[]): OutboundPolicy {
  const ips = new BlockList();
  const hosts = new Set<string>();
  const endpoints: Array<OutboundTarget & { host: string }> = [];
  for (const raw of allowed.map((s) => s.trim()).filter(Boolean)) {
    if (/^[a-z]+:\/\//i.test(raw)) {
      try {
        const u = new URL(raw);
        endpoints.push({ ...targetOf(u), host: unmapped(u.hostname.replace(/^\[|\]$/g, "").toLowerCase()) });
      } catch {
        // not a URL: allows nothing
      }
      continue;
    }
    const [addr, bits] = raw.split("/");
    if (isIP(addr)) {
      if (bits === undefined) ips.addAddress(unmapped(addr), familyOf(unmapped(addr)));
      else ips.addSubnet(addr, Number(bits), familyOf(addr));
    } else hosts.add(raw.toLowerCase());
  }
  // Answers are remembered: the policy never changes, and a worker asks the same question on every call (Node's
  // BlockList makes a SocketAddress object per check — ~0.04 ms of a provider call's CPU, bench:engine's profile).
  const answers = new Map<string, boolean>();
  const decide = (host: string, address: string, target?: OutboundTarget): boolean => {
    const a = unmapped(address);
    if (!isSpecialAddress(a)) return true;
    const name = host.toLowerCase().replace(/^\[|\]$/g, "");
    if (hosts.has(name)) return true;
    if (isIP(a) !== 0 && ips.check(a, familyOf(a))) return true;
    if (!target) return false;
    return endpoints.some(
      (e) => e.protocol === target.protocol && e.port === target.port && (e.host === unmapped(name) || (isIP(e.host) !== 0 && e.host === a)),
    );
  };
  return {
    allows(host, address, target) {
      const key = `${host}\u0000${address}\u0000${target?.protocol ?? ""}\u0000${target?.port ?? ""}`;
      let ok = answers.get(key);
      if (ok === undefined) {
        if (answers.size >= 1_000) answers.clear(); // bounded: host names come from settings and providers' answers
        answers.set(key, (ok = decide(host, address, target)));
      }
      return ok;
    },
  };
}

/** The operator's policy now: FOF_ALLOWED_ENDPOINTS plus every base URL a credential is bound to (read per call). */
export function currentPolicy(): OutboundPolicy {
  // Asked for on every provider call: built once per value of the variables it reads (bench:engine's profile had
  // it at ~1.5 % of a worker's CPU, rebuilt per call), and again whenever one changes.
  const key = ["FOF_ALLOWED_ENDPOINTS", "FOF_CREDENTIALS", "OPENAI_BASE_URL", "REPLICATE_BASE_URL"].map((k) => process.env[k] ?? "").join("\u0000");
  if (policyCache?.key !== key) policyCache = { key, policy: buildPolicy() };
  return policyCache.policy;
}

let policyCache: { key: string; policy: OutboundPolicy } | null = null;

function buildPolicy(): OutboundPolicy {
  const fromEnv = (process.env.FOF_ALLOWED_ENDPOINTS ?? "").split(",");
  let declared: string[] = [];
  try {
    declared = declaredCredentials().flatMap((c) => c.urls);
  } catch {
    // A malformed FOF_CREDENTIALS is reported where credentials are used; the policy stays strict.
  }
  return outboundPolicy([...fromEnv, ...declared]);
}

const refusal = (host: string, address: string, url?: URL) =>
  new OutboundRefusedError(
    `refused to connect to ${host}${url?.port ? `:${url.port}` : ""}${host === address ? "" : ` (${address})`}: a private, loopback or link-local address — an operator may allow it with FOF_ALLOWED_ENDPOINTS`,
  );

/** Checks a URL whose host is a literal IP (DNS is not consulted for those, so the lookup hook never sees them). */
export function checkUrl(url: URL, policy: OutboundPolicy = currentPolicy()): void {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new OutboundRefusedError(`refused: ${url.protocol} is not http(s)`);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !policy.allows(host, host, targetOf(url))) throw refusal(host, host, url);
}

/** A DNS lookup for http(s) requests to `target` (scheme and port) that refuses addresses the policy does not allow. */
export function guardedLookup(policy: OutboundPolicy, target: OutboundTarget): LookupFunction {
  return ((
    hostname: string,
    options: dns.LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
  ) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => !policy.allows(hostname, a.address, target));
      if (bad) return callback(refusal(hostname, bad.address) as unknown as NodeJS.ErrnoException, "", 0);
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  }) as LookupFunction;
}
