import { CONTEXTS, TESTS, type Context, type Test } from "../../lib/benchmark";
import { db, migrateAndSeed } from "../../lib/db";
import { createRun, presetConfig, PRESET_NAMES, runProgress, runScores, t2iPresetConfig, Worker, type PresetName } from "../../lib/engine";

const list = <T extends string>(value: string | undefined, allowed: readonly T[], what: string): T[] | undefined => {
  if (value === undefined) return undefined;
  const items = value.split(",").map((s) => s.trim()).filter(Boolean);
  const bad = items.filter((i) => !allowed.includes(i as T));
  if (bad.length) throw new Error(`unknown ${what}: ${bad.join(", ")} (choose from ${allowed.join(", ")})`);
  return items as T[];
};

export interface RunOptions {
  model: string[];
  tests?: string;
  contexts?: string;
  preset: string;
  seed: string;
  objectiveRepeats?: string;
  subjectiveRepeats?: string;
  budget?: string;
  imagesPerPrompt?: string;
  name?: string;
  pretty?: boolean;
}

const int = (v: string | undefined, what: string) => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${what} must be a non-negative integer, got "${v}"`);
  return n;
};

/** `fof run`: plan a run, work it to the end in this process, print its scores (the `fof score` shape). */
export async function runCommand(opts: RunOptions) {
  if (!PRESET_NAMES.includes(opts.preset as PresetName)) throw new Error(`unknown preset "${opts.preset}" (choose from ${PRESET_NAMES.join(", ")})`);
  const seed = int(opts.seed, "--seed")!;
  const budget = opts.budget === undefined ? null : Number(opts.budget);
  if (budget !== null && !(budget > 0)) throw new Error(`--budget must be a positive number of USD`);
  await migrateAndSeed({ quiet: true });
  const prisma = db();
  // Text-to-image models get a T2I run (images are then labelled on the Label page; scores follow the labels).
  const t2i = (await prisma.modelConfig.count({ where: { slug: { in: opts.model }, modality: "t2i" } })) > 0;
  const tests = opts.tests ? { tests: list<Test>(opts.tests, TESTS, "test") } : {};
  const config = t2i
    ? t2iPresetConfig(opts.preset as PresetName, { ...tests, ...(opts.imagesPerPrompt ? { imagesPerPrompt: int(opts.imagesPerPrompt, "--images-per-prompt") } : {}) })
    : presetConfig(opts.preset as PresetName, {
        ...tests,
        ...(opts.contexts ? { contexts: list<Context>(opts.contexts, CONTEXTS, "context") } : {}),
        ...(opts.objectiveRepeats ? { objectiveRepeats: int(opts.objectiveRepeats, "--objective-repeats") } : {}),
        ...(opts.subjectiveRepeats ? { subjectiveRepeats: int(opts.subjectiveRepeats, "--subjective-repeats") } : {}),
      });
  const run = await createRun(prisma, { models: opts.model, config, preset: opts.preset, seed, budgetUsd: budget, name: opts.name });
  process.stderr.write(`run ${run.id}: ${run.plannedCount} queries planned\n`);
  const worker = new Worker(prisma, { runId: run.id, log: (m) => process.stderr.write(`${m}\n`) });
  const onSignal = () => {
    process.stderr.write("stopping: in-flight calls finish and are saved; resume with `fof worker`\n");
    worker.stop();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const ticker = setInterval(async () => {
    const rows = await runProgress(prisma, run.id);
    const done = rows.filter((r) => ["answered", "refused", "failed"].includes(r.status)).reduce((a, r) => a + r.count, 0);
    process.stderr.write(`  ${done}/${run.plannedCount}\n`);
  }, 2000);
  try {
    await worker.run({ untilDone: true });
  } finally {
    clearInterval(ticker);
  }
  const final = await prisma.run.findUniqueOrThrow({ where: { id: run.id } });
  process.stderr.write(`run ${run.id}: ${final.status}${final.error ? ` (${final.error})` : ""}\n`);
  if (t2i) process.stderr.write(`images generated; label their faces on the Label page (/label?run=${run.id}), then \`fof scores ${run.id}\`\n`);
  const results = await runScores(prisma, run.id);
  process.stdout.write(JSON.stringify({ results }, null, opts.pretty ? 2 : undefined) + "\n");
  await prisma.$disconnect();
  if (final.status !== "completed") process.exitCode = 3;
}

/** `fof worker`: work every running run until stopped (SIGINT/SIGTERM finish in-flight calls first). */
export async function workerCommand() {
  await migrateAndSeed({ quiet: true });
  const prisma = db();
  const worker = new Worker(prisma, { log: (m) => process.stderr.write(`${m}\n`) });
  process.once("SIGINT", () => worker.stop());
  process.once("SIGTERM", () => worker.stop());
  process.stderr.write(`worker ${worker.owner} started\n`);
  await worker.run();
  await prisma.$disconnect();
}
