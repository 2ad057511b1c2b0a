// The DSSE envelope's shape and its pre-authentication encoding, with no platform crypto: shared by the server's
// signer (./dsse.ts, node's crypto) and the browser verifier's worker (WebCrypto), so both sign and check the very
// same bytes.
import { z } from "zod";

export const IN_TOTO_PAYLOAD_TYPE = "application/vnd.in-toto+json";

// Standard base64 (RFC 4648 §4), padded, and canonical (the unused bits of the last character zero): one text for one
// byte string, so every decoder reads it alike. Node's Buffer.from(s, "base64") also takes base64url, skips what is no
// base64 and stops at the first "=", while the browser's atob is strict: a signature re-written in base64url once
// verified with `fof verify` and failed in /verify (hostile re-test, 2026-12-07). The writer's Buffer#toString
// ("base64") is canonical.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes of canonical base64 text, or null for anything else. */
export function base64Bytes(s: string): Uint8Array | null {
  if (!BASE64.test(s)) return null;
  const binary = atob(s);
  return btoa(binary) === s ? Uint8Array.from(binary, (c) => c.charCodeAt(0)) : null;
}
const base64 = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => base64Bytes(s) !== null, "not canonical base64 (RFC 4648, padded)");

export const envelopeSchema = z
  .object({
    payloadType: z.string().max(200),
    payload: base64(16_000_000),
    signatures: z
      .array(z.object({ keyid: z.string().max(200).optional(), sig: base64(1000) }).strict())
      .min(1)
      .max(16),
  })
  .strict();
export type Envelope = z.infer<typeof envelopeSchema>;

/** Pre-Authentication Encoding: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths as ASCII decimals of bytes. */
export function paeBytes(payloadType: string, payload: Uint8Array): Uint8Array {
  const enc = new TextEncoder();
  const type = enc.encode(payloadType);
  const head = enc.encode(`DSSEv1 ${type.length} `);
  const mid = enc.encode(` ${payload.length} `);
  const out = new Uint8Array(head.length + type.length + mid.length + payload.length);
  out.set(head, 0);
  out.set(type, head.length);
  out.set(mid, head.length + type.length);
  out.set(payload, head.length + type.length + mid.length);
  return out;
}
