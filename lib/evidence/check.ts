// A bundle's checks that need no database, on its unpacked files: the signature over the Statement, the Statement's
// subject against the manifest, every file against the manifest, nothing added, and the rows whole
// (./completeness.ts). Platform-free (the crypto is passed in), so the browser verifier's worker runs the same checks;
// it then re-scores with the workbench's own scoring code (lib/features/evidence/browser-entry.ts).
import { base64Bytes, envelopeSchema, IN_TOTO_PAYLOAD_TYPE, paeBytes } from "./envelope";
import { ENVELOPE_NAME, MANIFEST_NAME, manifestSchema, statementSchema } from "./statement";
import { Completeness, requiredFiles, TABLE_FILES } from "./completeness";
import { readKeyInput } from "./key-input";
import { checkDesign } from "./design-check";
import { headProblems } from "./instant";

export type { BundleCheck, BundleCrypto } from "./check-types";
import type { BundleCheck, BundleCrypto } from "./check-types";

// (the envelope's schema holds its base64 canonical: ./envelope.ts)
const fromBase64 = (s: string) => base64Bytes(s) ?? new Uint8Array();
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
  opts: { publicKeyPem?: string; embeddedKeyName: string; heldDesign?: Uint8Array },
): Promise<{ checks: BundleCheck[]; run: string | null; trusted: boolean }> {
  const checks: BundleCheck[] = [];
  const out = { checks, run: null as string | null, trusted: Boolean(opts.publicKeyPem) };
  const fail = (check: string, detail: string) => (checks.push({ check, ok: false, detail }), out);
  const pass = (check: string, detail: string) => checks.push({ check, ok: true, detail });

  const envelope = envelopeSchema.safeParse(parse(entries[ENVELOPE_NAME]));
  if (!envelope.success || envelope.data.payloadType !== IN_TOTO_PAYLOAD_TYPE) return fail("signature", `${ENVELOPE_NAME} is missing or not a DSSE envelope`);
  // A key given is read as the PEM or the key address's JSON; anything else is named as not a key (not a bundle failure).
  const given = opts.publicKeyPem === undefined ? null : readKeyInput(opts.publicKeyPem);
  if (given && "problem" in given) return fail("key", given.problem);
  // the bundle's own key read as a given one is (one PEM public key block), as `fof verify` reads it
  const embedded = given || !entries[opts.embeddedKeyName] ? null : readKeyInput(text(entries[opts.embeddedKeyName]));
  if (embedded && "problem" in embedded) return fail("signature", `${opts.embeddedKeyName}: ${embedded.problem}`);
  const key = given?.pem ?? embedded?.pem ?? null;
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
  for (const name of requiredFiles(manifest.data.format)) if (!listed.has(name)) bad.push(`${name}: not in the bundle`);
  if (bad.length) return fail("files", bad.join("; "));
  pass("files", `${manifest.data.files.length} files, each SHA-256 as the manifest says`);

  const run = parse(entries["run.json"]) as { id?: string; plannedCount?: number } | null;
  const whole = new Completeness(statement.data.predicate.run.id, manifest.data.format);
  const rowsOf = (name: string) =>
    text(entries[name])
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  // in `fof verify`'s order (lib/features/evidence/verify.ts): the models' rows, what is wrong with the files read
  // whole, then the table rows — a line that is no JSON row is the rows' failure
  const unreadable = (e: unknown) => fail("rows", `the bundle's rows cannot be read back: ${(e as Error).message}`);
  let head: { models: Record<string, unknown>[]; runModels: Record<string, unknown>[] };
  try {
    head = { models: rowsOf("models.jsonl"), runModels: rowsOf("run-models.jsonl") };
  } catch (e) {
    return unreadable(e);
  }
  const heads = headProblems({ run, content: parse(entries["content.json"]), ...head });
  if (heads.length) return fail("completeness", heads.join("; "));
  try {
    for (const t of TABLE_FILES) for (const row of rowsOf(t.file)) whole.add(t.file, row);
  } catch (e) {
    return unreadable(e);
  }
  const problems = whole.finish(run);
  if (run?.id !== manifest.data.run) problems.push("run.json is another run than the manifest's");
  if (problems.length) return fail("completeness", problems.join("; "));
  pass("completeness", whole.summary);
  const designed = await checkDesign(
    entries,
    {
      run: (run ?? {}) as Record<string, unknown>,
      content: parse(entries["content.json"]) as Record<string, unknown>,
      ...head,
    },
    crypto,
    { key, format: manifest.data.format, heldDesign: opts.heldDesign },
  );
  checks.push(designed);
  return out;
}
