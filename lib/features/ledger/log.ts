// The server's transparency log (RFC 9162, lib/evidence/merkle.ts): every run's design statement appended at launch
// as one leaf, in launch order, never changed or removed. What an outsider asks of it — a signed checkpoint (size,
// root, time), an inclusion proof (this run's design is leaf i of the tree with that root), a consistency proof (the
// tree of size m is a prefix of the tree of size n), and the entries between two sizes (every run launched in
// between, with its models) — is computed from the stored leaf hashes. Server-only.
import type { PrismaClient } from "../../../generated/prisma/client";
import { publicUrl } from "../../core/public-url";
import { DomainError } from "../../core/errors";
import { signEnvelope, type Envelope } from "../../evidence/dsse";
import { CHECKPOINT_PAYLOAD_TYPE, type Checkpoint } from "../../evidence/design";
import { consistencyProof, fromHex, inclusionProof, leafHash, rootHash, toHex, type Hash } from "../../evidence/merkle";
import { signingKey } from "./keys";

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** Appends one entry at the next index (inside the caller's transaction: the launch that logs it). */
export async function appendEntry(
  tx: Tx,
  e: { kind: "design" | "import"; runId: string; models: string[]; body: string },
): Promise<{ index: number; leafHash: string }> {
  // a design once per run: a retried launch finds its entry (an import's batches are each appended)
  if (e.kind === "design") {
    const mine = await tx.logEntry.findFirst({ where: { runId: e.runId, kind: "design" }, select: { index: true, leafHash: true } });
    if (mine) return mine;
  }
  const last = await tx.logEntry.findFirst({ orderBy: { index: "desc" }, select: { index: true } });
  const index = (last?.index ?? -1) + 1;
  const hash = toHex(leafHash(new TextEncoder().encode(e.body)));
  // Two launches at once compute the same index: the second insert fails on the key and its transaction is retried.
  await tx.logEntry.create({ data: { index, leafHash: hash, kind: e.kind, runId: e.runId, models: e.models.join(","), body: e.body } });
  return { index, leafHash: hash };
}

/** The log's size now. */
async function logSize(prisma: PrismaClient): Promise<number> {
  return prisma.logEntry.count();
}

/** The leaf hashes of the first `size` entries, in order. */
async function leaves(prisma: PrismaClient, size: number): Promise<Hash[]> {
  const rows = await prisma.logEntry.findMany({ where: { index: { lt: size } }, orderBy: { index: "asc" }, select: { index: true, leafHash: true } });
  if (rows.length !== size || rows.some((r, i) => r.index !== i)) throw new Error(`the log's entries are not 0…${size - 1} without a gap`);
  return rows.map((r) => fromHex(r.leafHash));
}

async function sizeOr(prisma: PrismaClient, size: number | undefined): Promise<number> {
  const now = await logSize(prisma);
  if (size === undefined) return now;
  if (!Number.isSafeInteger(size) || size < 0 || size > now) throw new DomainError("invalid", `the log holds ${now} entries: no tree of size ${size}`);
  return size;
}

/** A signed checkpoint of the log (now, or at an earlier size): its size, root hash and the time it is signed. */
export async function checkpoint(prisma: PrismaClient, size?: number): Promise<{ checkpoint: Checkpoint; envelope: Envelope }> {
  const n = await sizeOr(prisma, size);
  const cp: Checkpoint = { origin: publicUrl(), size: n, rootHash: toHex(rootHash(await leaves(prisma, n))), time: new Date().toISOString() };
  return { checkpoint: cp, envelope: signEnvelope(Buffer.from(JSON.stringify(cp)), CHECKPOINT_PAYLOAD_TYPE, signingKey()) };
}

/** The inclusion proof of a run's design in the tree of `size` entries (default: now), with that tree's checkpoint. */
export async function inclusion(prisma: PrismaClient, runId: string, size?: number) {
  const entry = await prisma.logEntry.findFirst({ where: { runId, kind: "design" }, select: { index: true, leafHash: true } });
  if (!entry) throw new DomainError("not_found", "no design statement of this run in the log (it was launched before the log existed, or never)");
  return inclusionOf(prisma, entry, size);
}

/** The inclusion proof of one entry (a design, an import batch) in the tree of `size` entries (default: now). */
export async function inclusionOf(prisma: PrismaClient, entry: { index: number; leafHash: string }, size?: number) {
  const n = await sizeOr(prisma, size);
  if (entry.index >= n) throw new DomainError("invalid", `the run's entry is leaf ${entry.index}: after a tree of ${n}`);
  const hashes = await leaves(prisma, n);
  const cp = await checkpoint(prisma, n);
  return { index: entry.index, size: n, leafHash: entry.leafHash, proof: inclusionProof(entry.index, n, hashes).map(toHex), checkpoint: cp.envelope };
}

/** The consistency proof between the trees of `from` and `to` entries (to: default now). */
export async function consistency(prisma: PrismaClient, from: number, to?: number) {
  const n = await sizeOr(prisma, to);
  if (!Number.isSafeInteger(from) || from < 1 || from > n) throw new DomainError("invalid", `from must be a size between 1 and ${n}`);
  return { from, to: n, proof: consistencyProof(from, n, await leaves(prisma, n)).map(toHex) };
}

/** The entries with index in [from, to): each run launched in that stretch, its models and its signed design. */
export async function entriesBetween(prisma: PrismaClient, from: number, to: number, withBodies = false) {
  if (!(Number.isSafeInteger(from) && Number.isSafeInteger(to) && from >= 0 && to >= from && to - from <= 10_000))
    throw new DomainError("invalid", "ask for at most 10,000 entries, from ≤ to");
  const rows = await prisma.logEntry.findMany({
    where: { index: { gte: from, lt: to } },
    orderBy: { index: "asc" },
    select: { index: true, runId: true, kind: true, models: true, leafHash: true, createdAt: true, body: withBodies },
  });
  return rows.map((r) => ({ ...r, models: r.models ? r.models.split(",") : [], createdAt: r.createdAt.toISOString() }));
}
