// node:crypto for the browser verifier's bundle (scripts/build-verifier.mjs): what the scoring code calls — SHA-256
// and SHA-1 digests (cache keys, content hashes: @noble/hashes, synchronous like Node's), UUIDs and random bytes
// (WebCrypto). Anything else fails loudly.
import { sha1 } from "@noble/hashes/legacy.js";
import { sha256, sha512 } from "@noble/hashes/sha2.js";

const ALGORITHMS = { sha256, sha1, sha512 } as const;

type Data = string | Uint8Array;
const bytes = (d: Data) => (typeof d === "string" ? new TextEncoder().encode(d) : d);
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

export function createHash(algorithm: string) {
  const fn = ALGORITHMS[algorithm.toLowerCase() as keyof typeof ALGORITHMS];
  if (!fn) throw new Error(`createHash(${algorithm}) is not available in the browser verifier`);
  const parts: Uint8Array[] = [];
  const hash = {
    update(d: Data) {
      parts.push(bytes(d));
      return hash;
    },
    digest(encoding?: "hex" | "base64") {
      const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) all.set(p, (at += p.length) - p.length);
      const out = fn(all);
      if (encoding === "hex") return hex(out);
      if (encoding === "base64") return btoa(String.fromCharCode(...out));
      return out;
    },
  };
  return hash;
}

export const randomUUID = () => globalThis.crypto.randomUUID();
export const randomBytes = (n: number) => globalThis.crypto.getRandomValues(new Uint8Array(n));
export const webcrypto = globalThis.crypto;
const crypto = { createHash, randomUUID, randomBytes, webcrypto };
export default crypto;
