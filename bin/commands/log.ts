// `fof design RUN` prints a run's signed design statement with its inclusion proof; `fof log checkpoint` the log's
// signed checkpoint now; `fof log prove RUN` checks that a run's design is in the log (against a checkpoint you hold,
// or the log's now); `fof log consistency OLD NEW` checks that the log of the newer checkpoint only appended to the
// older one's, and lists every run launched in between, per model. Locally (the data directory) or against a server
// (--server; checkpoints and proofs need no token, the entries need results.read). docs/evidence.md.
import { createPublicKey } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import type { Remote } from "./remote-from";
import { envelopeSchema, verifyEnvelope, type Envelope } from "../../lib/evidence/dsse";
import { CHECKPOINT_PAYLOAD_TYPE, checkpointSchema, designStatementSchema, type Checkpoint } from "../../lib/evidence/design";
import { importStatementSchema } from "../../lib/evidence/imports";
import { fromHex, leafHash, rootHash, toHex, verifyConsistency, verifyInclusion } from "../../lib/evidence/merkle";

type Entry = { index: number; runId: string; models: string[]; createdAt: string; body?: string };
type Proof = { index: number; size: number; leafHash: string; proof: string[]; checkpoint: Envelope };
type Source = {
  design(runId: string): Promise<{ design: Envelope; log: Proof }>;
  checkpoint(): Promise<{ checkpoint: Checkpoint; envelope: Envelope }>;
  proof(runId: string, size?: number): Promise<Proof>;
  consistency(from: number, to: number): Promise<{ proof: string[] }>;
  entries(from: number, to: number): Promise<Entry[] | null>;
  key(): Promise<string>;
};

function remoteSource(r: Remote): Source {
  const get = async <T>(route: string, auth = true): Promise<T> => {
    const res = await fetch(`${r.server}${route}`, { headers: auth ? { authorization: `Bearer ${r.token}` } : {} });
    if (!res.ok) throw new Error(`GET ${route}: ${res.status} ${((await res.json().catch(() => null)) as { error?: string } | null)?.error ?? res.statusText}`);
    return res.json() as Promise<T>;
  };
  return {
    design: (id) => get(`/api/v1/runs/${encodeURIComponent(id)}/design`),
    checkpoint: () => get("/api/v1/log/checkpoint", false),
    proof: (id, size) => get(`/api/v1/log/proof?run=${encodeURIComponent(id)}${size !== undefined ? `&size=${size}` : ""}`, false),
    consistency: (from, to) => get(`/api/v1/log/consistency?from=${from}&to=${to}`, false),
    entries: (from, to) =>
      get<{ entries: Array<{ index: number; runId: string; models: string[]; createdAt: string }> }>(`/api/v1/log/entries?from=${from}&to=${to}`).then(
        (x) => x.entries,
        () => null,
      ),
    key: async () => (await (await fetch(`${r.server}/.well-known/fof-evidence-key?format=pem`)).text()).trim() + "\n",
  };
}

async function localSource(): Promise<Source & { close(): Promise<void> }> {
  const { db, migrateAndSeed } = await import("../../lib/db");
  await migrateAndSeed({ quiet: true });
  const log = await import("../../lib/features/ledger/log");
  const { designApi } = await import("../../lib/server/api/log");
  const { publicKeyInfo } = await import("../../lib/features/ledger/keys");
  return {
    design: (id) => designApi(id) as Promise<{ design: Envelope; log: Proof }>,
    checkpoint: () => log.checkpoint(db()),
    proof: (id, size) => log.inclusion(db(), id, size) as Promise<Proof>,
    consistency: (from, to) => log.consistency(db(), from, to),
    entries: (from, to) => log.entriesBetween(db(), from, to, true),
    key: async () => publicKeyInfo().pem,
    close: () => db().$disconnect(),
  };
}

async function withSource<T>(r: Remote | null, fn: (s: Source) => Promise<T>): Promise<T> {
  if (r) return fn(remoteSource(r));
  const s = await localSource();
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

const write = (value: unknown, out?: string) => {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (out) writeFileSync(out, text, { mode: 0o644 });
  else process.stdout.write(text);
};

/** A checkpoint file's checkpoint, its signature checked with the key. */
function heldCheckpoint(file: string, keyPem: string): Checkpoint {
  const raw = JSON.parse(readFileSync(file, "utf8")) as { envelope?: unknown; checkpoint?: unknown };
  const envelope = envelopeSchema.parse(raw.envelope ?? raw);
  if (envelope.payloadType !== CHECKPOINT_PAYLOAD_TYPE) throw new Error(`${file}: not a log checkpoint`);
  const payload = verifyEnvelope(envelope, createPublicKey(keyPem));
  if (!payload) throw new Error(`${file}: its signature does not verify with the key (another signer, or changed)`);
  return checkpointSchema.parse(JSON.parse(payload.toString("utf8")));
}

export async function designCommand(r: Remote | null, runId: string, opts: { output?: string }) {
  await withSource(r, async (s) => write(await s.design(runId), opts.output));
}

export async function checkpointCommand(r: Remote | null, opts: { output?: string }) {
  await withSource(r, async (s) => write(await s.checkpoint(), opts.output));
}

export async function proveCommand(r: Remote | null, runId: string, opts: { checkpoint?: string; key?: string }) {
  await withSource(r, async (s) => {
    const key = opts.key ? readFileSync(opts.key, "utf8") : await s.key();
    const held = opts.checkpoint ? heldCheckpoint(opts.checkpoint, key) : null;
    const p = await s.proof(runId, held?.size);
    const cp = held ?? heldCheckpointFrom(p.checkpoint, key);
    const ok = p.size === cp.size && verifyInclusion(p.index, p.size, fromHex(p.leafHash), p.proof.map(fromHex), fromHex(cp.rootHash));
    process.stdout.write(
      ok
        ? `✓ run ${runId}'s design is entry ${p.index} of the log of ${cp.size} entries (root ${cp.rootHash.slice(0, 16)}…)\n`
        : `✗ run ${runId}'s design is NOT proven in the log of ${cp.size} entries\n`,
    );
    if (!ok) process.exitCode = 1;
  });
}

function heldCheckpointFrom(envelope: Envelope, keyPem: string): Checkpoint {
  const payload = verifyEnvelope(envelopeSchema.parse(envelope), createPublicKey(keyPem));
  if (!payload) throw new Error("the log's checkpoint does not verify with the key");
  return checkpointSchema.parse(JSON.parse(payload.toString("utf8")));
}

export async function consistencyCommand(r: Remote | null, older: string, newer: string, opts: { key?: string; json?: boolean }) {
  await withSource(r, async (s) => {
    const key = opts.key ? readFileSync(opts.key, "utf8") : await s.key();
    const a = heldCheckpoint(older, key);
    const b = heldCheckpoint(newer, key);
    if (a.origin !== b.origin) throw new Error(`two logs: ${a.origin} and ${b.origin}`);
    if (b.size < a.size) throw new Error(`the newer checkpoint (${b.size}) is smaller than the older (${a.size}): the log shrank`);
    const consistent =
      a.size === 0 ||
      (a.size === b.size
        ? a.rootHash === b.rootHash
        : verifyConsistency(a.size, b.size, fromHex(a.rootHash), fromHex(b.rootHash), (await s.consistency(a.size, b.size)).proof.map(fromHex)));
    // The runs launched in between, read from the log's own leaves: every entry's body is hashed again and the two
    // trees rebuilt from them must be the two checkpoints' — so the list is the log, not what a server says of it —
    // and each run and its models come from its signed design, not from a column beside it.
    let entries: Array<{ index: number; runId: string; models: string[]; createdAt: string; imported?: string }> | null = [];
    if (consistent && b.size > a.size) {
      const all: Entry[] = [];
      for (let from = 0; from < b.size && all.length === from; from += 10_000) {
        const page = await s.entries(from, Math.min(b.size, from + 10_000));
        if (!page) {
          all.length = 0;
          entries = null;
          break;
        }
        all.push(...page);
      }
      if (entries !== null) {
        const leaves = all.map((e) => leafHash(new TextEncoder().encode(e.body ?? "")));
        if (all.length !== b.size || toHex(rootHash(leaves.slice(0, a.size))) !== a.rootHash || toHex(rootHash(leaves)) !== b.rootHash)
          throw new Error("the entries the log lists are not the leaves its checkpoints sign: the listing was changed");
        entries = all.slice(a.size).map((e) => {
          const envelope = envelopeSchema.parse(JSON.parse(e.body!));
          const payload = verifyEnvelope(envelope, createPublicKey(key));
          if (!payload) throw new Error(`entry ${e.index}: it is not signed by the key`);
          const statement = JSON.parse(payload.toString("utf8")) as unknown;
          // an import's batch of images (lib/evidence/imports.ts): listed, not counted as a launch
          const batch = importStatementSchema.safeParse(statement);
          if (batch.success) {
            const p = batch.data.predicate;
            return {
              index: e.index,
              runId: p.run.id,
              models: [],
              createdAt: p.importedAt,
              imported: `import ${p.batch}: ${p.images.length} images of ${p.model}`,
            };
          }
          const design = designStatementSchema.parse(statement).predicate;
          return {
            index: e.index,
            runId: design.run.id,
            models: design.models.filter((m) => m.role === "audited").map((m) => m.slug),
            createdAt: design.run.launchedAt,
          };
        });
      }
    }
    const perModel = new Map<string, number>();
    for (const e of entries ?? []) for (const m of e.models) perModel.set(m, (perModel.get(m) ?? 0) + 1);
    if (opts.json) process.stdout.write(`${JSON.stringify({ consistent, from: a, to: b, launched: entries, perModel: Object.fromEntries(perModel) })}\n`);
    else if (!consistent)
      process.stdout.write(`✗ the log of ${b.size} entries does NOT extend the one of ${a.size}: it was rewritten, or two views were served\n`);
    else {
      process.stdout.write(`✓ the log of ${b.size} entries extends the one of ${a.size}: nothing removed or changed, ${b.size - a.size} appended\n`);
      if (entries === null) process.stdout.write("  (listing the runs launched in between needs a token with results.read)\n");
      for (const e of entries ?? []) process.stdout.write(`  ${e.index}\t${e.createdAt}\t${e.runId}\t${e.imported ?? e.models.join(", ")}\n`);
      for (const [m, n] of [...perModel].sort()) process.stdout.write(`  ${m}: ${n} run${n === 1 ? "" : "s"} launched\n`);
    }
    if (!consistent) process.exitCode = 1;
  });
}
