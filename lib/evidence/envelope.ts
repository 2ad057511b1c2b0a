// The DSSE envelope's shape and its pre-authentication encoding, with no platform crypto: shared by the server's
// signer (./dsse.ts, node's crypto) and the browser verifier's worker (WebCrypto), so both sign and check the very
// same bytes.
import { z } from "zod";

export const IN_TOTO_PAYLOAD_TYPE = "application/vnd.in-toto+json";

export const envelopeSchema = z
  .object({
    payloadType: z.string().max(200),
    payload: z.string().max(16_000_000),
    signatures: z
      .array(z.object({ keyid: z.string().max(200).optional(), sig: z.string().max(1000) }).strict())
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
