import { CONTEXTS, TESTS, type Context, type Test } from "../../lib/benchmark";
import { db, migrateAndSeed } from "../../lib/db";
import { createRun } from "../../lib/features/runs/runs";
import { failureReasons, outcomeCounts } from "../../lib/features/runs/outcomes";
import { outcomeLabel } from "../../lib/core/run-status";
import { presetConfig, PRESET_NAMES, t2iPresetConfig, type PresetName } from "../../lib/suites/fact-or-fair/config";
import { runProgress } from "../../lib/features/results/run-results";
import { Worker } from "../../lib/features/runs/worker";
import { DEFAULT_SUITE_ID, listSuites, suiteOf } from "../../lib/suites";
import { logger } from "../../lib/log";
import { progressLine } from "./progress";
import { env } from "../../lib/env";
import { checkThresholds, parseThresholds } from "../../lib/results/thresholds";
import { compareGate } from "./compare-cli";

// What only some runs need, or only after the last call, is loaded when it is needed: a run's first provider call
// waits for everything imported here (npm run bench:cli). Scores, exports, labelling, comparisons: below, lazily.
const resultsModule = () => import("../../lib/features/results/explore");
const exporting = () => import("../../lib/suites/export");
const labelModule = () => import("./label");
const labelWorker = () => import("../../lib/features/labelling/worker");

/** This process's worker takes adaptive runs' looks (scored by the results layer, loaded for them only). */
async function registerLooks() {
  (await import("../../lib/features/results/adaptive-looks")).registerLooks();
}
import { adaptiveStateOf, adaptiveSummary, targetText } from "../../lib/results/adaptive";
import { reuseFromFlags } from "../../lib/results/answer-reuse";

const list = <T extends string>(value: string | undefined, allowed: readonly T[], what: string): T[] | undefined => {
  if (value === undefined) return undefined;
  const items = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = items.filter((i) => !allowed.includes(i as T));
  if (bad.length) throw new Error(`unknown ${what}: ${bad.join(", ")} (choose from ${allowed.join(", ")})`);
  return items as T[];
};

export interface RunOptions {
  model: string[];
  suite?: string;
  config?: string;
  tests?: string;
  contexts?: string;
  preset: string;
  seed: string;
  objectiveRepeats?: string;
  subjectiveRepeats?: string;
  budget?: string;
  /** adaptive: stop when this target is met (lib/metrics/sequential.ts parseUntil) */
  until?: string;
  imagesPerPrompt?: string;
  /** chain of thought: every query asks for the reasoning before its JSON answer (lib/benchmark/cot.ts) */
  cot?: boolean;
  name?: string;
  pretty?: boolean;
  /** a stored content version of the suite (e.g. imported official data) */
  content?: string;
  /** text-to-image: label the faces in this process (onnxruntime-node) before printing the scores */
  label?: boolean;
  /** with --server: follow the run to its end (a local run always does) */
  wait?: boolean;
  /** release gates on the scores, e.g. "d<=0.25" (exit 5 when a model misses one) */
  failUnder?: string;
  /** a reference run to compare each model with, and the metrics that must not get separably worse */
  compareTo?: string;
  failIfWorse?: string;
  /** take answers another run obtained (that run's id), or any run's no older than an age ("30d", "12h") */
  reuseAnswersFrom?: string;
  reuseAnswersMaxAge?: string;
}

const reuseInput = (opts: RunOptions) => {
  const r = reuseFromFlags(opts.reuseAnswersFrom, opts.reuseAnswersMaxAge);
  return r ? { reuseAnswers: r } : {};
};

const int = (v: string | undefined, what: string) => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${what} must be a non-negative integer, got "${v}"`);
  return n;
};

/** `fof run`: plan a run, work it to the end in this process, print its scores (the `fof score` shape). */
export async function runCommand(opts: RunOptions) {
  // `--content my-set@1.0.0` alone: the suite whose content that names (a team's content set).
  const claimed = !opts.suite && opts.content ? listSuites().find((s) => s.claimsContent?.(opts.content!)) : undefined;
  if (claimed) return runSuiteCommand({ ...opts, suite: claimed.id });
  if (opts.suite && opts.suite !== DEFAULT_SUITE_ID) return runSuiteCommand(opts);
  if (opts.config) throw new Error("--config is for suites with their own configuration (--suite); FACT-OR-FAIR takes the options above");
  if (opts.content)
    throw new Error(`--content names a content set as <set id>@<version> (fof content list), or a suite's imported content version with --suite`);
  if (!PRESET_NAMES.includes(opts.preset as PresetName)) throw new Error(`unknown preset "${opts.preset}" (choose from ${PRESET_NAMES.join(", ")})`);
  const gates = opts.failUnder ? parseThresholds(opts.failUnder) : null;
  const worse = compareGate(opts);
  const seed = int(opts.seed, "--seed")!;
  const budget = opts.budget === undefined ? null : Number(opts.budget);
  if (budget !== null && !(budget > 0)) throw new Error(`--budget must be a positive number of USD`);
  await migrateAndSeed({ quiet: true });
  const prisma = db();
  // Text-to-image models get a T2I run (images are then labelled on the Label page; scores follow the labels).
  const t2i = (await prisma.modelConfig.count({ where: { slug: { in: opts.model }, modality: "t2i" } })) > 0;
  const tests = opts.tests ? { tests: list<Test>(opts.tests, TESTS, "test") } : {};
  const config = t2i
    ? t2iPresetConfig(opts.preset as PresetName, {
        ...tests,
        ...(opts.imagesPerPrompt ? { imagesPerPrompt: int(opts.imagesPerPrompt, "--images-per-prompt") } : {}),
      })
    : presetConfig(opts.preset as PresetName, {
        ...tests,
        ...(opts.contexts ? { contexts: list<Context>(opts.contexts, CONTEXTS, "context") } : {}),
        ...(opts.objectiveRepeats ? { objectiveRepeats: int(opts.objectiveRepeats, "--objective-repeats") } : {}),
        ...(opts.subjectiveRepeats ? { subjectiveRepeats: int(opts.subjectiveRepeats, "--subjective-repeats") } : {}),
        ...(opts.cot ? { cot: true } : {}),
      });
  if (opts.cot && t2i) throw new Error("--cot is for chat models (an image model gives no reasoning)");
  if (opts.label && !t2i) throw new Error("--label is for text-to-image models (their faces are labelled)");
  if (opts.label) (await labelModule()).instrumentFiles("faces"); // no face models: refused before anything is generated
  const { run, final } = await planAndWork(
    prisma,
    {
      models: opts.model,
      config,
      preset: opts.preset,
      seed,
      budgetUsd: budget,
      name: opts.name,
      ...(opts.until ? { until: opts.until } : {}),
      ...reuseInput(opts),
    },
    t2i,
    !!opts.label,
  );
  if (opts.label) await (await labelModule()).labelHere(prisma, run.id);
  const results = await (await resultsModule()).runScores(prisma, run.id);
  const adaptive = adaptiveOutput(final);
  process.stdout.write(JSON.stringify({ results, ...(adaptive ? { adaptive } : {}) }, null, opts.pretty ? 2 : undefined) + "\n");
  process.exitCode = exitCodeOf(final);
  if (gates) {
    const checked = checkThresholds(results, gates);
    for (const g of checked)
      process.stderr.write(`${g.ok ? "pass" : "FAIL"}  ${g.model}  ${g.gate}  (worst ${g.worst === null ? "none" : g.worst.toFixed(4)})\n`);
    if (checked.some((g) => !g.ok)) process.exitCode = EXIT.gateMissed;
  }
  if (worse && (await (await import("./compare")).gateAgainst(prisma, opts.compareTo!, run.id, opts.model, worse))) process.exitCode = EXIT.gateMissed;
  await prisma.$disconnect();
}

/**
 * An adaptive run's verdict beside its scores: the sentence, and the last look's intervals — the ones valid under the
 * stopping rule (their level is the look's, lib/metrics/sequential.ts), not the Results page's fixed-size 95 % ones.
 */
function adaptiveOutput(run: { adaptiveJson: string | null; status: string; budgetUsd: number | null }) {
  const state = adaptiveStateOf(run.adaptiveJson);
  if (!state) return null;
  const last = state.looks.at(-1) ?? null;
  return {
    until: targetText(state),
    outcome: state.outcome,
    summary: adaptiveSummary(state, run),
    intervals: last ? { look: last.look, level: last.level, target: state.intervalTarget, rows: last.rows } : null,
  };
}

/**
 * `fof run`'s exit status (README "Command line"): 0 every item answered or refused; 3 the run did not complete
 * (failed — e.g. every call failed —, cancelled, out of budget or paused); 4 it completed but some items failed; 5 a
 * --fail-under gate was missed (checked last: it wins over 3 and 4).
 */
const EXIT = { ok: 0, incomplete: 3, itemsFailed: 4, gateMissed: 5 } as const;
function exitCodeOf(final: { status: string; failed: number }): number {
  if (final.status !== "completed") return EXIT.incomplete;
  return final.failed > 0 ? EXIT.itemsFailed : EXIT.ok;
}

/**
 * `fof run --suite ID`: the suite's preset with `--config` (JSON) laid over it, checked by the suite's own schema;
 * prints the suite's result views (the same JSON as the run page's "JSON" export).
 */
async function runSuiteCommand(opts: RunOptions) {
  const suite = suiteOf(opts.suite!);
  if (opts.failUnder) throw new Error(`--fail-under reads FACT-OR-FAIR's scores; ${suite.name} reports result tables (read them from the JSON)`);
  if (opts.compareTo) throw new Error(`--compare-to compares FACT-OR-FAIR's scores; ${suite.name}'s comparisons are not available yet`);
  const preset = suite.presets[opts.preset];
  if (!preset) throw new Error(`unknown ${suite.name} preset "${opts.preset}" (choose from ${Object.keys(suite.presets).join(", ")})`);
  // FACT-OR-FAIR's own flags, where the suite's config has the same setting (a content-set run's tests, repeats …).
  const fofFlags = (["tests", "contexts", "objectiveRepeats", "subjectiveRepeats", "imagesPerPrompt"] as const).filter((k) => opts[k] !== undefined);
  const shared = fofFlags.filter((k) => k in (preset.config as object));
  const fofOnly = fofFlags.filter((k) => !shared.includes(k));
  if (fofOnly.length)
    throw new Error(
      `${fofOnly.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(", ")}: FACT-OR-FAIR options; give ${suite.name}'s settings with --config '{"…": …}'`,
    );
  let overrides: Record<string, unknown> = {};
  if (opts.config) {
    try {
      overrides = JSON.parse(opts.config) as Record<string, unknown>;
    } catch (e) {
      throw new Error(`--config is not JSON: ${(e as Error).message}`);
    }
    if (!overrides || typeof overrides !== "object" || Array.isArray(overrides)) throw new Error("--config must be a JSON object");
  }
  if (opts.cot) {
    if (!("cot" in (preset.config as object))) throw new Error(`--cot: ${suite.name} runs have no chain-of-thought option`);
    overrides.cot = true;
  }
  for (const k of shared)
    overrides[k] =
      k === "tests" || k === "contexts" ? opts[k]!.split(",").map((x) => x.trim()) : int(opts[k], `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
  const seed = int(opts.seed, "--seed")!;
  const budget = opts.budget === undefined ? null : Number(opts.budget);
  if (budget !== null && !(budget > 0)) throw new Error(`--budget must be a positive number of USD`);
  await migrateAndSeed({ quiet: true });
  const prisma = db();
  const t2i = suite.modalityOf(preset.config) === "t2i";
  if (opts.label && !t2i) throw new Error("--label is for text-to-image suites (their faces are labelled)");
  if (opts.label) {
    // The instrument's files (face models, or CLIP's pair), refused before anything is generated.
    const parsed = suite.configSchema.safeParse({ ...(preset.config as object), ...overrides });
    (await labelModule()).instrumentFiles((parsed.success ? suite.labelInstrument?.(parsed.data) : undefined) ?? "faces");
  }
  const { run, final } = await planAndWork(
    prisma,
    {
      suite: suite.id,
      models: opts.model,
      config: { ...(preset.config as object), ...overrides },
      preset: opts.config || shared.length ? "custom" : opts.preset,
      seed,
      budgetUsd: budget,
      name: opts.name,
      ...(opts.content ? { contentVersion: opts.content } : {}),
      ...(opts.until ? { until: opts.until } : {}),
      ...reuseInput(opts),
    },
    t2i,
    !!opts.label,
  );
  if (opts.label) await (await labelModule()).labelHere(prisma, run.id);
  const { genericSuiteOfRun, suiteResultsJson } = await exporting();
  const generic = await genericSuiteOfRun(prisma, run.id);
  const body = generic
    ? await suiteResultsJson(prisma, run.id, generic, { labels: "model" })
    : { results: await (await resultsModule()).runScores(prisma, run.id) };
  // An adaptive run's verdict and the intervals valid under its stopping rule, as FACT-OR-FAIR's output carries them.
  const adaptive = adaptiveOutput(final);
  process.stdout.write(JSON.stringify({ ...body, ...(adaptive ? { adaptive } : {}) }, null, opts.pretty ? 2 : undefined) + "\n");
  await prisma.$disconnect();
  process.exitCode = exitCodeOf(final);
}

export const SUITE_IDS = () =>
  listSuites()
    .map((s) => s.id)
    .join(" | ");

/**
 * Plans the run and works it in this process. The worker starts as soon as the run exists and calls the rows while
 * the rest are written (whilePlanning), so a long plan costs no time at the provider.
 */
async function planAndWork(prisma: ReturnType<typeof db>, input: Parameters<typeof createRun>[1], t2i: boolean, labelling = false) {
  // An adaptive text-to-image run's looks wait for its labels: without --label nothing here would label them.
  if (input.until && t2i && !labelling)
    throw new Error("an adaptive text-to-image run is scored as its images are labelled: add --label (this process labels them between looks)");
  if (input.until) await registerLooks();
  let started: { worker: Worker; working: Promise<void> } | null = null;
  const log = (m: string) => process.stderr.write(`${m}\n`);
  let run: Awaited<ReturnType<typeof createRun>>;
  try {
    run = await createRun(prisma, input, {
      onCreated: (r) => {
        const worker = new Worker(prisma, { runId: r.id, whilePlanning: true, log });
        started = { worker, working: worker.run({ untilDone: true }) };
      },
    });
  } catch (e) {
    (started as { worker: Worker } | null)?.worker.stop();
    throw e;
  }
  const { worker, working } = started!;
  if (!(input.until && t2i)) return { run, final: await workToEnd(prisma, run, t2i, worker, working, labelling) };
  // Adaptive text-to-image: this run's images are labelled here as they arrive, so each look can be taken.
  const labeller = await (await labelWorker()).labelWorkerFromEnv(prisma, undefined, {}, { runId: run.id, idleMs: 250 }).catch((e) => {
    worker.stop();
    throw e;
  });
  const labellingDone = labeller.run();
  try {
    return { run, final: await workToEnd(prisma, run, t2i, worker, working, labelling) };
  } finally {
    labeller.stop();
    await labellingDone;
  }
}

async function workToEnd(
  prisma: ReturnType<typeof db>,
  run: { id: string; plannedCount: number },
  t2i: boolean,
  worker: Worker,
  working: Promise<void>,
  labelling: boolean,
) {
  process.stderr.write(`run ${run.id}: ${run.plannedCount} ${t2i ? "images and queries" : "queries"} planned\n`);
  const onSignal = () => {
    process.stderr.write("stopping: in-flight calls finish and are saved; resume with `fof worker`\n");
    worker.stop();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const progress = progressLine();
  const ticker = setInterval(async () => {
    const rows = await runProgress(prisma, run.id).catch(() => null); // a busy database: the next tick tells
    if (!rows) return;
    const done = rows.filter((r) => ["answered", "refused", "failed"].includes(r.status)).reduce((a, r) => a + r.count, 0);
    progress(`  ${done.toLocaleString("en-US")} / ${run.plannedCount.toLocaleString("en-US")} done`);
  }, 1000);
  try {
    await working;
  } finally {
    clearInterval(ticker);
    progress.end();
  }
  const row = await prisma.run.findUniqueOrThrow({ where: { id: run.id } });
  const failed = (await outcomeCounts(prisma, [run.id])).get(run.id)!.failed;
  const final = { ...row, failed };
  process.stderr.write(`run ${run.id}: ${outcomeLabel(row.status, failed)}${row.error ? ` (${row.error})` : ""}\n`);
  const adaptive = adaptiveStateOf(row.adaptiveJson);
  if (adaptive) process.stderr.write(`run ${run.id}: ${adaptiveSummary(adaptive, row)}\n`);
  // A run allowed to take other runs' answers says how many it took: its sample is partly theirs.
  if (row.reuseJson) {
    const reused = await prisma.outcome.count({ where: { query: { runId: run.id }, reusedFromRunId: { not: null } } });
    process.stderr.write(
      `run ${run.id}: ${reused.toLocaleString("en-US")} answers reused from other runs (allowed: ${row.reuseJson}); the rest obtained for it\n`,
    );
  }
  // Every distinct reason a call failed, with how many items it took: a failure is never only a number.
  if (failed > 0) for (const r of await failureReasons(prisma, run.id, 20)) process.stderr.write(`  ${r.count.toLocaleString("en-US")} failed: ${r.reason}\n`);
  if (t2i && failed < run.plannedCount && !labelling)
    process.stderr.write(
      `images generated; label their faces on the Label page (/label?run=${run.id}) or with \`fof label ${run.id}\`, then \`fof scores ${run.id}\`\n`,
    );
  return final;
}

/** `fof worker`: work every running run until stopped (SIGINT/SIGTERM finish in-flight calls first). */
export interface WorkerCommandOptions {
  /** label the faces of auto-labelled runs too ("on"), or only ("only"); FOF_WORKER_LABEL by default */
  label?: boolean;
  labelOnly?: boolean;
  /**
   * with labelling on (not label-only): models that do not load are logged and the worker works runs without them,
   * as the web server's own worker did — `npm start`'s worker process; a `fof worker` unit stops instead
   */
  labelIfAvailable?: boolean;
  /** npm start's worker: serve this process's counters on this Unix socket for the web server's /metrics */
  metricsSocket?: string;
}

export async function workerCommand(opts: WorkerCommandOptions = {}) {
  await migrateAndSeed({ quiet: true });
  const prisma = db();
  const mode = opts.labelOnly ? "only" : opts.label ? "on" : env().FOF_WORKER_LABEL;
  // A service: structured JSON logs (lib/log.ts) with the worker's id on every line.
  let log = logger.child({ component: "worker" });
  // Labelling first: a missing or wrong model stops the command before it takes any work.
  const labeller =
    mode === "off"
      ? null
      : await (
          await labelWorker()
        )
          .labelWorkerFromEnv(prisma, (m) => log.info({ labeller: true }, m))
          .catch((e: unknown) => {
            if (!opts.labelIfAvailable || mode === "only") throw e;
            log.error(`not labelling (runs are worked without it): ${e instanceof Error ? e.message : String(e)}`);
            return null;
          });
  const worker = mode === "only" ? null : new Worker(prisma, { log: (m) => log.info(m) });
  // A service: what a run's first viewer would wait for (intervals, result views) is computed here when it settles.
  (await import("../../lib/features/results/ahead")).registerAhead();
  await registerLooks();
  if (worker) log = log.child({ worker: worker.owner });
  const stop = () => {
    worker?.stop();
    labeller?.stop();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  // GET /metrics on a private address of this host (docs/operations.md): this process's provider calls, retries and
  // labelling, which no other process can report. Loaded only when asked for (the guard brings better-auth).
  const metricsAt = env().FOF_METRICS_LISTEN;
  const metrics = metricsAt ? (await import("../../lib/server/metrics-listener")).startMetricsListener(metricsAt, (m) => log.info(m)) : null;
  // npm start's worker: its counters reach the web server's /metrics through a socket (lib/server/process-metrics.ts).
  const forServer = opts.metricsSocket
    ? (await import("../../lib/server/process-metrics")).serveProcessMetrics(opts.metricsSocket, (await import("../../lib/server/metrics")).DB_GAUGES, (m) =>
        log.info(m),
      )
    : null;
  log.info({ calls: !!worker, labels: !!labeller }, "worker started");
  await Promise.all([worker?.run(), labeller?.run()]);
  metrics?.close();
  forServer?.close();
  // How much this worker did: deployments and bench:scale see how work was split between workers.
  log.info({ outcomes: worker?.outcomes ?? null, labelled: labeller?.done ?? null }, "worker stopped");
  await prisma.$disconnect();
}
