import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { db, migrateAndSeed } from "../../lib/db";
import { env } from "../../lib/env";
import { DomainError } from "../../lib/core/errors";
import { importImages } from "../../lib/features/imports/store";
import { LABEL_SOURCES, recordLine, runRecordChunks, type LabelSource } from "../../lib/features/results/run-results";
import { runScores } from "../../lib/features/results/explore";
import { RACE_MAPPINGS, type RaceMapping } from "../../lib/faces/labels";
import { genericSuiteOfRun, suiteResultsJson } from "../../lib/suites/export";
import { DEFAULT_PROFILE, SCORING_PROFILES, type ScoringProfile } from "../../lib/metrics/profiles";

function raceMapping(v: string | undefined): RaceMapping {
  const m = (v ?? "paper") as RaceMapping;
  if (!RACE_MAPPINGS.includes(m)) throw new Error(`unknown race mapping "${v}" (choose from ${RACE_MAPPINGS.join(", ")})`);
  return m;
}

function labelSource(v: string | undefined): LabelSource {
  const l = (v ?? "model") as LabelSource;
  if (!LABEL_SOURCES.includes(l)) throw new Error(`unknown labels "${v}" (choose from ${LABEL_SOURCES.join(", ")})`);
  return l;
}

async function findRun(runId: string) {
  await migrateAndSeed({ quiet: true });
  const run = await db().run.findUnique({ where: { id: runId }, select: { id: true } });
  if (!run) throw new Error(`run "${runId}" not found`);
}

/** `fof scores RUN`: a stored run's scores in the `fof score` shape (T2I: from the labelled faces). */
export async function scoresCommand(runId: string, opts: { raceMapping?: string; labels?: string; pretty?: boolean; profile?: string }) {
  const profile = (SCORING_PROFILES as readonly string[]).includes(opts.profile ?? DEFAULT_PROFILE)
    ? ((opts.profile ?? DEFAULT_PROFILE) as ScoringProfile)
    : null;
  if (!profile) throw new Error(`--profile must be one of ${SCORING_PROFILES.join(", ")}`);
  const mapping = raceMapping(opts.raceMapping);
  const labels = labelSource(opts.labels);
  await findRun(runId);
  // A suite with generic results prints its views (tables beside the published rows), as the run page's JSON export.
  const generic = await genericSuiteOfRun(db(), runId);
  const body = generic
    ? await suiteResultsJson(db(), runId, generic, { labels, profile })
    : { profile, results: await runScores(db(), runId, { raceMapping: mapping, labels, profile }) };
  process.stdout.write(JSON.stringify(body, null, opts.pretty ? 2 : undefined) + "\n");
  await db().$disconnect();
}

/** `fof export RUN`: the run's JSONL v1 lines (one per answer, or per detected face for T2I), streamed. */
export async function exportCommand(runId: string, opts: { raceMapping?: string; labels?: string }) {
  const mapping = raceMapping(opts.raceMapping);
  const labels = labelSource(opts.labels);
  await findRun(runId);
  let n = 0;
  const generic = await genericSuiteOfRun(db(), runId);
  if (generic) {
    if (!generic.suite.exportLines) throw new Error(`${generic.suite.name} runs have no JSONL export`);
    for await (const lines of generic.suite.exportLines({ prisma: db() }, { runId, labels })) {
      n += lines.length;
      if (!process.stdout.write(lines.map((l) => JSON.stringify(l) + "\n").join(""))) await new Promise((r) => process.stdout.once("drain", r));
    }
    process.stderr.write(`${n} lines\n`);
    return void (await db().$disconnect());
  }
  for await (const chunk of runRecordChunks(db(), runId, { raceMapping: mapping, labels })) {
    const text = chunk.map((r) => recordLine(r, labels) + "\n").join("");
    n += chunk.length;
    if (!process.stdout.write(text)) await new Promise((r) => process.stdout.once("drain", r));
  }
  process.stderr.write(`${n} lines\n`);
  await db().$disconnect();
}

// Names keep the chosen folder's own name, so `fof import objective/` still reads <test>/<statistic>/<level>/<file>.
function walk(dir: string, base = path.dirname(path.resolve(dir))): Array<{ name: string; file: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.resolve(dir, e.name);
    if (e.isDirectory()) return walk(file, base);
    return e.isFile() ? [{ name: path.relative(base, file).split(path.sep).join("/"), file }] : [];
  });
}

/** `fof import --model SLUG PATH…`: folders, zips or files, mapped and checked like the Import page; all or nothing. */
function importInstrument(v: string | undefined): "faces" | "clip" {
  if (v === undefined || v === "faces") return "faces";
  if (v === "clip") return "clip";
  throw new Error("--instrument: faces or clip");
}

export async function importCommand(paths: string[], opts: { model: string; suite?: string; run?: string; name?: string; instrument?: string }) {
  // Read from disk one at a time while checked (archives in slices, entries spilled to a scratch folder).
  const files = paths
    .flatMap((p) => (statSync(p).isDirectory() ? walk(p) : [{ name: path.basename(p), file: p }]))
    .map((f) => ({ name: f.name, path: f.file, size: statSync(f.file).size }));
  await migrateAndSeed({ quiet: true });
  // A scratch folder for archive entries; the user's own files are copied into the store, never moved.
  const scratch = mkdtempSync(path.join(env().dataDir, "import-"));
  const workDir = path.join(scratch, "expanded");
  mkdirSync(workDir, { mode: 0o700 });
  try {
    const r = await importImages(db(), env().dataDir, {
      modelSlug: opts.model,
      suite: opts.suite ?? null,
      runId: opts.run ?? null,
      runName: opts.name ?? null,
      instrument: importInstrument(opts.instrument),
      files,
      workDir,
    });
    for (const s of r.skipped) process.stderr.write(`left out ${s.name}: ${s.message}\n`);
    process.stderr.write(`imported ${r.imported} images (mapped by ${r.mappedBy}) into run ${r.runId}\n`);
    process.stdout.write(JSON.stringify({ runId: r.runId, imported: r.imported }) + "\n");
  } catch (e) {
    if (e instanceof DomainError) for (const p of e.problems ?? []) process.stderr.write(`${p.name}: ${p.message}\n`);
    throw e;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await db().$disconnect();
  }
}
