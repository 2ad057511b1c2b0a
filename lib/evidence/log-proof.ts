// An entry's place in the transparency log, as a verifier checks it (lib/evidence/merkle.ts, RFC 9162): the leaf is
// the entry's own bytes, proven by an inclusion proof against a checkpoint signed by the same key. Platform-free:
// `fof verify` and /verify check design statements and import batches with it alike.
import type { BundleCrypto } from "./check-types";
import { CHECKPOINT_PAYLOAD_TYPE, checkpointSchema } from "./design";
import { base64Bytes, envelopeSchema, paeBytes, type Envelope } from "./envelope";
import { fromHex, leafHash, toHex, verifyInclusion } from "./merkle";

// (envelopes parse through envelopeSchema: their base64 is canonical, ./envelope.ts)
const fromBase64 = (s: string) => base64Bytes(s) ?? new Uint8Array();
const decode = (b: Uint8Array) => new TextDecoder().decode(b);

/** The payload of an envelope of `type` signed by `key`, parsed as JSON; null when no signature verifies. */
export async function signedPayload(envelope: Envelope, type: string, crypto: BundleCrypto, key: string): Promise<unknown | null> {
  if (envelope.payloadType !== type) return null;
  const payload = fromBase64(envelope.payload);
  for (const s of envelope.signatures)
    if (await crypto.verify(paeBytes(envelope.payloadType, payload), fromBase64(s.sig), key).catch(() => false)) return JSON.parse(decode(payload));
  return null;
}

/** An envelope's payload as JSON, unverified (for a reader after the signature was checked). */
export const payloadOf = (envelope: Envelope): unknown => JSON.parse(decode(fromBase64(envelope.payload)));

/** Where `entry` (its exact bytes) is in the log by `proof`, or why it is not shown to be. */
export async function provenInLog(
  entry: Uint8Array,
  proof: { index: number; size: number; leafHash: string; proof?: string[]; checkpoint: unknown },
  crypto: BundleCrypto,
  key: string,
): Promise<{ index: number; size: number; time: string } | string> {
  const cpEnvelope = envelopeSchema.safeParse(proof.checkpoint);
  const cp = cpEnvelope.success
    ? checkpointSchema.safeParse(await signedPayload(cpEnvelope.data, CHECKPOINT_PAYLOAD_TYPE, crypto, key).catch(() => null))
    : null;
  if (!cp?.success) return "the log checkpoint is not signed by the key";
  const leaf = leafHash(entry);
  if (toHex(leaf) !== proof.leafHash || cp.data.size !== proof.size) return "the log proof is for another entry or tree";
  if (!verifyInclusion(proof.index, proof.size, leaf, (proof.proof ?? []).map(fromHex), fromHex(cp.data.rootHash)))
    return `not proven to be entry ${proof.index} of the log of ${proof.size}`;
  return { index: proof.index, size: proof.size, time: cp.data.time };
}
