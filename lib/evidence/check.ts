// A bundle's checks that need no database, on its unpacked files: the signature over the Statement, the Statement's
// subject against the manifest, every file against the manifest, nothing added, and every planned query with its one
// outcome. Platform-free (the crypto is passed in), so the browser verifier's worker runs the same checks as far as
// they go; re-scoring needs the workbench's scoring code and database layer, which `fof verify` has.
import { envelopeSchema, IN_TOTO_PAYLOAD_TYPE, paeBytes } from "./envelope";
import { ENVELOPE_NAME, MANIFEST_NAME, manifestSchema, statementSchema } from "./statement";

export interface BundleCheck {
  check: string;
  ok: boolean;
  detail: string;
}

export interface BundleCrypto {
  sha256(bytes: Uint8Array): Promise<string>;
  /** true when `sig` is an Ed25519 signature of `message` by the PEM public key */
  verify(message: Uint8Array, sig: Uint8Array, publicKeyPem: string): Promise<boolean>;
}

const fromBase64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : "");
const parse = (b: Uint8Array | undefined): unknown => {
  try {
    return JSON.parse(text(b));
  } catch {
    return null;
  }
};

export async function checkBundleFiles(
  entries: Record<string, Uint8Array>,
  crypto: BundleCrypto,
  opts: { publicKeyPem?: string; embeddedKeyName: string },
): Promise<{ checks: BundleCheck[]; run: string | null; trusted: boolean }> {
  const checks: BundleCheck[] = [];
  const out = { checks, run: null as string | null, trusted: Boolean(opts.publicKeyPem) };
  const fail = (check: string, detail: string) => (checks.push({ check, ok: false, detail }), out);
  const pass = (check: string, detail: string) => checks.push({ check, ok: true, detail });

  const envelope = envelopeSchema.safeParse(parse(entries[ENVELOPE_NAME]));
  if (!envelope.success || envelope.data.payloadType !== IN_TOTO_PAYLOAD_TYPE) return fail("signature", `${ENVELOPE_NAME} is missing or not a DSSE envelope`);
  const key = opts.publicKeyPem ?? (entries[opts.embeddedKeyName] ? text(entries[opts.embeddedKeyName]) : null);
  if (!key) return fail("signature", `no key: give the workbench's public key (${opts.embeddedKeyName} is missing)`);
  const payload = fromBase64(envelope.data.payload);
  const message = paeBytes(envelope.data.payloadType, payload);
  let signed = false;
  for (const s of envelope.data.signatures) if (await crypto.verify(message, fromBase64(s.sig), key).catch(() => false)) signed = true;
  if (!signed)
    return fail(
      "signature",
      opts.publicKeyPem ? "does not verify with the given key (signed by another key, or changed)" : "does not verify with the bundle's own key",
    );
  pass(
    "signature",
    opts.publicKeyPem ? "Ed25519, with the given key" : "Ed25519 by the bundle's own key — integrity only: give the workbench's key to check who signed",
  );

  const statement = statementSchema.safeParse(parse(payload));
  if (!statement.success) return fail("statement", "the signed payload is not this project's in-toto Statement");
  if (!entries[MANIFEST_NAME]) return fail("manifest", `${MANIFEST_NAME} is missing`);
  if (statement.data.subject[0].digest.sha256 !== (await crypto.sha256(entries[MANIFEST_NAME])))
    return fail("manifest", `${MANIFEST_NAME} is not the one the Statement signs`);
  const manifest = manifestSchema.safeParse(parse(entries[MANIFEST_NAME]));
  if (!manifest.success) return fail("manifest", `${MANIFEST_NAME} is not a manifest`);
  out.run = manifest.data.run;
  pass("statement", `${statement.data.predicateType}, run ${statement.data.predicate.run.id} (${statement.data.predicate.run.suite})`);

  const listed = new Set(manifest.data.files.map((f) => f.path));
  const bad: string[] = [];
  for (const f of manifest.data.files) {
    const b = entries[f.path];
    if (!b) bad.push(`${f.path}: missing`);
    else if (b.length !== f.bytes || (await crypto.sha256(b)) !== f.sha256) bad.push(`${f.path}: changed (SHA-256 differs from the manifest)`);
  }
  for (const name of Object.keys(entries))
    if (!listed.has(name) && name !== MANIFEST_NAME && name !== ENVELOPE_NAME) bad.push(`${name}: not in the manifest (added)`);
  if (bad.length) return fail("files", bad.join("; "));
  pass("files", `${manifest.data.files.length} files, each SHA-256 as the manifest says`);

  const run = parse(entries["run.json"]) as { id?: string; plannedCount?: number } | null;
  const rows = (name: string) =>
    text(entries[name])
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const status = new Map<number, string>();
  const outcomes = new Map<number, number>();
  const problems: string[] = [];
  for (const q of rows("queries.jsonl")) {
    if (status.has(Number(q.id))) problems.push(`query ${q.id} appears twice`);
    status.set(Number(q.id), String(q.status));
  }
  for (const o of rows("outcomes.jsonl")) outcomes.set(Number(o.queryId), (outcomes.get(Number(o.queryId)) ?? 0) + 1);
  if (!run || run.id !== manifest.data.run) problems.push("run.json is another run than the manifest's");
  if (Number(run?.plannedCount) !== status.size) problems.push(`the run planned ${run?.plannedCount} queries; the bundle has ${status.size}`);
  for (const [id, s] of status) {
    const n = outcomes.get(id) ?? 0;
    const done = s === "answered" || s === "refused" || s === "failed";
    if (done !== (n === 1) || n > 1) problems.push(`query ${id} (${s}) has ${n} outcomes`);
  }
  for (const id of outcomes.keys()) if (!status.has(id)) problems.push(`an outcome of query ${id}, which the bundle does not have`);
  if (problems.length) return fail("completeness", problems.slice(0, 20).join("; "));
  pass("completeness", `${status.size} queries, each finished one with its one outcome`);
  return out;
}
