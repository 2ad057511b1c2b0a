// DSSE (Dead Simple Signing Envelope, secure-systems-lab/dsse v1), as in-toto attestations and Sigstore use it: the
// signature covers PAE(payloadType, payload) — never the JSON around it — so neither the type nor the payload can be
// swapped under a valid signature. Ed25519 through node's crypto; keyid = sha256 of the public key's SPKI DER, hex.
import { createHash, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
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
export function pae(payloadType: string, payload: Buffer): Buffer {
  const type = Buffer.from(payloadType, "utf8");
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${payload.length} `), payload]);
}

export function keyIdOf(key: KeyObject): string {
  const pub = key.type === "private" ? createPublicKey(key) : key;
  return createHash("sha256")
    .update(pub.export({ type: "spki", format: "der" }))
    .digest("hex");
}

export function signEnvelope(payload: Buffer, payloadType: string, privateKey: KeyObject): Envelope {
  const sig = sign(null, pae(payloadType, payload), privateKey);
  return { payloadType, payload: payload.toString("base64"), signatures: [{ keyid: keyIdOf(privateKey), sig: sig.toString("base64") }] };
}

/** The payload, if one of the envelope's signatures verifies with this public key; null otherwise. */
export function verifyEnvelope(envelope: Envelope, publicKey: KeyObject): Buffer | null {
  const payload = Buffer.from(envelope.payload, "base64");
  const message = pae(envelope.payloadType, payload);
  for (const s of envelope.signatures) {
    try {
      if (verify(null, message, publicKey, Buffer.from(s.sig, "base64"))) return payload;
    } catch {
      // a malformed signature verifies nothing
    }
  }
  return null;
}
