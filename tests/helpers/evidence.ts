// Tampering with an evidence bundle the way an outsider (who cannot sign) or an insider (who holds the key and
// re-signs) would: unpack, change, and — for an insider — redo the manifest and the signed Statement.
import { createHash, type KeyObject } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { unzipSync } from "fflate";
import { canonicalZip } from "../../lib/evidence/zip";
import { IN_TOTO_PAYLOAD_TYPE, signEnvelope } from "../../lib/evidence/dsse";
import { statementFor } from "../../lib/evidence/statement";

export type Entries = Record<string, Uint8Array>;
export const text = (b: Uint8Array) => Buffer.from(b).toString("utf8");
export const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
export const lines = (b: Uint8Array) => text(b).split("\n").filter(Boolean);
export const rows = (b: Uint8Array) => lines(b).map((l) => JSON.parse(l) as Record<string, unknown>);
export const jsonl = (rs: unknown[]) => Buffer.from(rs.map((r) => JSON.stringify(r) + "\n").join(""));

/** A copy of `bundle` (in `dir`, named `name`.zip) with `change` applied; `resign`: manifest and Statement redone, signed with it. */
export function tampered(bundle: string, dir: string, name: string, change: (e: Entries) => void, resign?: KeyObject) {
  const e = unzipSync(readFileSync(bundle));
  change(e);
  if (resign) {
    const manifest = JSON.parse(text(e["manifest.json"])) as { files: Array<{ path: string; sha256: string; bytes: number }> };
    for (const f of manifest.files) if (e[f.path]) Object.assign(f, { sha256: sha(e[f.path]), bytes: e[f.path].length });
    e["manifest.json"] = Buffer.from(JSON.stringify(manifest));
    const old = JSON.parse(Buffer.from(JSON.parse(text(e["attestation.dsse.json"])).payload, "base64").toString("utf8"));
    const statement = statementFor(sha(e["manifest.json"]), old.predicate);
    e["attestation.dsse.json"] = Buffer.from(JSON.stringify(signEnvelope(Buffer.from(JSON.stringify(statement)), IN_TOTO_PAYLOAD_TYPE, resign)));
  }
  const file = path.join(dir, `${name}.zip`);
  // Re-packed canonically (the attacker's best move: an archive every reader reads alike, so only the files can differ).
  writeFileSync(file, canonicalZip(Object.entries(e)));
  return file;
}
