// DSSE (Dead Simple Signing Envelope, secure-systems-lab/dsse v1), as in-toto attestations and Sigstore use it: the
// signature covers PAE(payloadType, payload) — never the JSON around it — so neither the type nor the payload can be
// swapped under a valid signature. Ed25519 through node's crypto; keyid = sha256 of the public key's SPKI DER, hex.
import { createHash, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { base64Bytes, paeBytes, type Envelope } from "./envelope";

export { envelopeSchema, IN_TOTO_PAYLOAD_TYPE, type Envelope } from "./envelope";

/** Pre-Authentication Encoding (./envelope.ts), as a Buffer. */
export function pae(payloadType: string, payload: Buffer): Buffer {
  return Buffer.from(paeBytes(payloadType, payload));
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
  // canonical base64 only, decoded as the browser verifier decodes it (./envelope.ts)
  const bytes = base64Bytes(envelope.payload);
  if (!bytes) return null;
  const payload = Buffer.from(bytes);
  const message = pae(envelope.payloadType, payload);
  for (const s of envelope.signatures) {
    try {
      const sig = base64Bytes(s.sig);
      if (sig && verify(null, message, publicKey, sig)) return payload;
    } catch {
      // a malformed signature verifies nothing
    }
  }
  return null;
}
