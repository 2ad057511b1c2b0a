// `fof bundle <run>` / GET /api/v1/runs/:id/bundle: one zip a person outside the team can check. Every file is
// streamed into the archive (queries and outcomes a page at a time) and hashed as it is written; the manifest names
// each file's SHA-256 and size, an in-toto Statement makes the manifest its subject, and a DSSE envelope signs the
// Statement with the workbench's Ed25519 key. Written to a temporary file renamed into place at the end: a bundle is
// whole or absent. docs/evidence.md.
import { createHash, createPublicKey } from "node:crypto";
import { spawnSync } from "node:child_process";
import { readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { CanonicalZipFile } from "./zip-file";
import { DESIGN_NAME, LOG_PROOF_NAME } from "../../evidence/design-check";
import { IMPORTS_NAME } from "../../evidence/imports";
import { inclusion, inclusionOf } from "../ledger/log";
import type { PrismaClient } from "../../../generated/prisma/client";
import { IN_TOTO_PAYLOAD_TYPE, keyIdOf, signEnvelope } from "../../evidence/dsse";
import { evidenceReport } from "../../evidence/report";
import { REPORT_NAME, reportInput } from "../../evidence/report-check";
import { ENVELOPE_NAME, MANIFEST_NAME, statementFor, type Manifest } from "../../evidence/statement";
import { projectRoot } from "../../paths";
import pLimit from "p-limit";
import { DomainError } from "../../core/errors";
import { signingKey } from "../ledger/keys";
import { evidenceScores } from "./scores";
import { CURRENT_FORMAT, EXPLANATIONS_NAME, TABLE_FILES } from "../../evidence/completeness";
import { statedExplanations } from "./explanations-stated";
import { Pseudonyms } from "../ledger/people";
import { runRows, tablePages, type Row } from "./tables";
import { PUBLIC_KEY_NAME, SCORES_NAME, SOFTWARE_NAME } from "../../evidence/limits";

const line = (r: Row) => `${JSON.stringify(r)}\n`;

/** The installed version of a dependency (the range package.json asks for when it cannot be read). */
function installed(name: string, range: string): string {
  try {
    return (JSON.parse(readFileSync(path.join(projectRoot(), "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return range;
  }
}

function software() {
  const root = projectRoot();
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    name: string;
    version: string;
    dependencies?: Record<string, string>;
  };
  let commit = process.env.FOF_GIT_COMMIT ?? null;
  if (!commit) {
    const git = spawnSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" });
    commit = git.status === 0 && /^[0-9a-f]{40}$/.test(git.stdout.trim()) ? git.stdout.trim() : null;
  }
  // Whether the files that ran are the commit's: tracked files changed since it (package-lock.json included) are
  // named, so a reader never takes a modified tree for the commit. Unknown (null) without git, e.g. a deployment
  // from an archive with FOF_GIT_COMMIT set.
  let changedFromCommit: string[] | null = null;
  if (commit && !process.env.FOF_GIT_COMMIT) {
    const status = spawnSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: root, encoding: "utf8" });
    if (status.status === 0)
      changedFromCommit = status.stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => l.slice(3).trim())
        .slice(0, 50);
  }
  let lockfile: string | null = null;
  try {
    lockfile = createHash("sha256")
      .update(readFileSync(path.join(root, "package-lock.json")))
      .digest("hex");
  } catch {
    // a deployment without its lock file: the installed versions below still say what ran
  }
  const packages = Object.fromEntries(Object.entries(pkg.dependencies ?? {}).map(([name, range]) => [name, installed(name, range)]));
  return { name: pkg.name, version: pkg.version, commit, changedFromCommit, node: process.version, lockfileSha256: lockfile, packages };
}

/**
 * Bundles one server writes at once: a paper-size run's takes seconds and a few hundred MiB (docs/BENCHMARKS.md), so
 * they are written one after another, in the order asked. Each account has at most one bundle written or waiting
 * (a second is answered 429), so no account can keep everyone else's waiting; at most MAX_WAITING wait in all (503).
 */
const MAX_BUNDLES_AT_ONCE = 1;
const MAX_WAITING = 16;
const bundleQueue = pLimit(MAX_BUNDLES_AT_ONCE);
const perAccount = new Set<string>();

/** writeBundle for a request: queued behind other accounts' bundles; refused while the same account has one under way. */
export async function writeBundleBounded(prisma: PrismaClient, runId: string, outFile: string, account: string | null = null) {
  const key = account ?? "server";
  if (perAccount.has(key)) throw new DomainError("rate_limited", "an evidence bundle of yours is being written: wait for it, then try again");
  if (bundleQueue.pendingCount >= MAX_WAITING) throw new DomainError("unavailable", "evidence bundles are queued on this server: try again in a minute");
  perAccount.add(key);
  try {
    return await bundleQueue(() => writeBundle(prisma, runId, outFile));
  } finally {
    perAccount.delete(key);
  }
}

export async function writeBundle(prisma: PrismaClient, runId: string, outFile: string): Promise<{ file: string; bytes: number; manifest: Manifest }> {
  const { content, run, models, runModels } = await runRows(prisma, runId);
  const tmp = `${outFile}.partial-${process.pid}-${Date.now()}`;
  // The canonical archive (lib/evidence/zip.ts): every reader — fof verify, /verify, unzip — reads these same files.
  const zip = await CanonicalZipFile.create(tmp);
  const files: Manifest["files"] = [];
  // One archive entry: hashed and counted as written, compressed to disk as it comes (bounded memory).
  const entry = async (name: string, parts: AsyncIterable<string> | Iterable<string>) => {
    const hash = createHash("sha256");
    const size = await zip.add(
      name,
      (async function* () {
        for await (const part of parts) {
          const buf = Buffer.from(part, "utf8");
          hash.update(buf);
          yield buf;
        }
      })(),
    );
    files.push({ path: name, sha256: hash.digest("hex"), bytes: size });
  };
  const pages = async function* (gen: AsyncGenerator<Row[]>) {
    for await (const page of gen) yield page.map(line).join("");
  };
  try {
    // the small files, kept as written: the report is rendered from exactly these bytes, as a verifier renders it
    const small: Record<string, Uint8Array> = {};
    const whole = async (name: string, text: string) => {
      small[name] = Buffer.from(text, "utf8");
      await entry(name, [text]);
    };
    await whole("content.json", JSON.stringify(content));
    await whole("run.json", JSON.stringify(run));
    await whole("models.jsonl", models.map(line).join(""));
    await whole("run-models.jsonl", runModels.map(line).join(""));
    const key = signingKey();
    const tables = tablePages(prisma, runId, new Pseudonyms(key));
    // every table file, empty ones too (a chat run has no images): a verifier can tell "none" from "left out"
    for (const t of TABLE_FILES) await entry(t.file, pages(tables[t.file]()));
    const scores = await evidenceScores(prisma, runId);
    await whole(SCORES_NAME, JSON.stringify(scores));
    // format v3 (a run with a design): a reasoning run's explanation results, re-computed by verifiers (null otherwise)
    const design0 = await prisma.logEntry.findFirst({ where: { runId, kind: "design" }, select: { index: true } });
    if (design0) await whole(EXPLANATIONS_NAME, JSON.stringify(await statedExplanations(prisma, runId)));
    const sw = software();
    await whole(SOFTWARE_NAME, JSON.stringify(sw));
    // The design signed at launch, byte for byte as logged, and its place in the log now (format v2; a run launched
    // before designs were logged has none: format v1).
    const design = await prisma.logEntry.findFirst({ where: { runId, kind: "design" }, select: { body: true } });
    if (design) {
      await entry(DESIGN_NAME, [design.body]);
      await entry(LOG_PROOF_NAME, [JSON.stringify(await inclusion(prisma, runId))]);
      // An import's batches, each as logged when its images were committed, with its place in the log now.
      const batches = await prisma.logEntry.findMany({
        where: { runId, kind: "import" },
        orderBy: { index: "asc" },
        select: { index: true, leafHash: true, body: true },
      });
      if (batches.length) {
        const entries = [];
        for (const b of batches) entries.push({ body: b.body, proof: await inclusionOf(prisma, b) });
        await entry(IMPORTS_NAME, [JSON.stringify({ entries })]);
      }
    }
    await entry(REPORT_NAME, [evidenceReport(reportInput(small, keyIdOf(key)))]);
    await entry(PUBLIC_KEY_NAME, [createPublicKey(key).export({ type: "spki", format: "pem" }).toString()]);
    const manifest: Manifest = { format: design ? CURRENT_FORMAT : "fof-evidence/v1", run: runId, files };
    const manifestJson = JSON.stringify(manifest, null, 2);
    await entry(MANIFEST_NAME, [manifestJson]);
    const statement = statementFor(createHash("sha256").update(manifestJson).digest("hex"), {
      run: { id: run.id, suite: run.suiteId, suiteVersion: run.suiteVersion, status: run.status },
      createdAt: new Date().toISOString(),
      software: { name: sw.name, version: sw.version, commit: sw.commit },
      scores: { file: SCORES_NAME, method: scores.method.slice(0, 400), target: scores.target, seed: scores.seed, resamples: scores.resamples },
    });
    const envelope = signEnvelope(Buffer.from(JSON.stringify(statement)), IN_TOTO_PAYLOAD_TYPE, key);
    await entry(ENVELOPE_NAME, [JSON.stringify(envelope, null, 2)]);
    const bytes = await zip.end();
    renameSync(tmp, outFile);
    return { file: outFile, bytes, manifest: { ...manifest, files: files.filter((f) => f.path !== MANIFEST_NAME && f.path !== ENVELOPE_NAME) } };
  } catch (e) {
    await zip.abort();
    rmSync(tmp, { force: true });
    throw e;
  }
}
