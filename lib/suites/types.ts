// What a benchmark suite declares, and the only way the engine, worker, labeller, review, exports, CLI and results
// pages learn about one. In Inspect AI's terms a suite is a Task: its content is the dataset, its planner and
// answer reader are the solver's contract with the engine, its metrics are the scorer, and its views are the log
// viewer's. Each suite lives in lib/suites/<id>/ (code) and data/suites/<id>/ (content), registered by one line in
// lib/suites/registry.ts.
import type { AdaptiveTarget, MetricVocabulary } from "../metrics/sequential";
import type { LookRow } from "../results/adaptive";
import type { IntervalQuantile, IntervalTarget } from "../metrics/design";
import type { MeanUnit } from "../metrics/mean-bootstrap";
import type { Difference } from "../metrics/paired";
import type { UnitArm } from "../metrics/ranks-units";
import type { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import type { SuiteView } from "./views";
import type { LabelAttribute } from "../review/label-set";
import type { ScoringProfile } from "../metrics/profiles";
import type { LabelInstrument } from "../faces/provenance";
import type { ClipGroups } from "../faces/clip-texts";

type SuiteModality = "llm" | "t2i";

/** Versioned content: whatever a suite plans from, plus the identity a run pins (BenchmarkVersion). */
export interface SuiteContent {
  version: string;
  /** sha256 of the canonical content */
  sha256: string;
}

/** What a launch is expected to pin down: per attribute, each score's expected 95 % half-width (null: not scored). */
export interface LaunchPrecision {
  target: number;
  attributes: Array<{ attribute: string; k: number; halfWidth: Record<string, number | null>; meetsTarget: boolean }>;
  warnings: string[];
}

/** One planned row (a Query). `role`: the audited models' work, or the helper model's (e.g. guidance writing). */
/** A Query row's planned columns: the suite's own coordinates in the generic columns (test, context, item id in
 * statisticId, variant in level …). FACT-OR-FAIR narrows the types (lib/suites/fact-or-fair/plan.ts PlannedQuery). */
export interface QueryColumns {
  test: string;
  context: string | null;
  statisticId: string;
  level: string;
  attribute: string | null;
  scenarioIndex: number | null;
  repeatIndex: number;
  prompt: string;
  optionsJson: string;
  identityJson: string | null;
  groundTruthJson: string;
}

/**
 * How an adaptive run's plan is cut into waves (lib/features/runs/adaptive.ts assignWaves): every row's stratum
 * (each stratum is in every wave) and cluster (the unit a wave draws whole, in a seeded order shared by every
 * stratum, so models and variants stay paired).
 */
export type WaveUnitOf = (
  row: { modelConfigId: string } & Pick<QueryColumns, "test" | "context" | "statisticId" | "level" | "attribute" | "scenarioIndex" | "repeatIndex">,
) => { stratum: string; cluster: string };

export interface SuitePlannedQuery extends QueryColumns {
  role: "subject" | "helper";
  modality: SuiteModality;
  /** helper rows: a key their dependents name; subject rows: the helper row whose answer completes the prompt */
  key?: string;
  dependsOn?: string | null;
}

/** How the engine calls for one run: limits the worker applies whatever the suite. */
export interface CallSettings {
  timeoutMs: number;
  maxRetries: number;
  maxReasks: number;
  /** the system message of helper calls (queries whose test is HELPER_TEST), when the suite's authors sent one */
  helperSystem?: string;
  /**
   * how the helper model is called, as the suite's authors called it, over the model's own settings: max_tokens, and
   * the temperature (null: not sent — the provider's default)
   */
  helperParams?: { maxTokens: number; temperature: number | null };
  /**
   * the least max_tokens the audited chat models' answers are called with (a model's own larger setting stands): a
   * chain-of-thought run's explanations must not be cut off (lib/benchmark/cot.ts)
   */
  answerMaxTokens?: number;
}

/**
 * A content version a launch form offers. `limits`: for a field of choices, the values this content allows (a content
 * set that declares only some contexts): the form offers only those while it is selected.
 */
export interface ContentChoice {
  version: string;
  label: string;
  limits?: Record<string, string[]>;
}

/** The `test` of a helper query (a chat call whose answer completes another query's prompt). */
export const HELPER_TEST = "guidance";

/**
 * The prompt a model is sent when a helper's answer completes it (chain-of-thought reasoning or guidance): the answer
 * follows after one space, exactly as the authors' released code composes `prompt + ' ' + model_extension` (untrimmed:
 * what the helper wrote is what the model reads).
 */
export function composeWithHelper(prompt: string, answer: string): string {
  return `${prompt} ${answer}`;
}

/**
 * A chat answer as the suite reads it: accepted — the option chosen (a letter; null for free text) and the attribute
 * values read from it, keyed by the suite's own attribute ids — or not readable (the engine re-asks, then refuses).
 */
export type AnswerReading = { ok: true; choice: string | null; values: Readonly<Record<string, string>> } | { ok: false; message: string };

/** The fields of the generic launch form a suite asks for (the form renders them, zod validates on the server). */
export type LaunchField =
  | { kind: "choices"; name: string; label: string; options: Array<{ value: string; label: string; hint?: string }>; help?: string }
  | { kind: "number"; name: string; label: string; min: number; max: number; help?: string }
  | { kind: "toggle"; name: string; label: string; help?: string }
  | { kind: "select"; name: string; label: string; options: Array<{ value: string; label: string }>; help?: string }
  | { kind: "helper-model"; name: string; label: string; help?: string };

/**
 * One launch form of a suite (a suite launched in several shapes — FACT-OR-FAIR's LLM and text-to-image runs — has
 * one per shape): its fields, its presets, and the config values it fixes (e.g. the modality).
 */
export interface LaunchVariant {
  id: string;
  /** the tab's label on the launch page, and the launch button's text after "Launch " */
  label: string;
  button: string;
  fields: readonly LaunchField[];
  presets: Record<string, { label: string; config: unknown }>;
  defaultPreset: string;
  /** config values the form does not ask for (merged into what the fields give) */
  fixed?: Record<string, unknown>;
}

/** A browsable item of a suite's content (a statistic, an entry) for the Benchmark page. */
interface SuiteItem {
  id: string;
  title: string;
  /** short facts shown in the list, by column */
  fields: Record<string, string>;
  /** longer text shown when the item is opened (a source passage, a definition) */
  detail: Array<{ label: string; text: string }>;
}

/** One face-label attribute a suite scores on: its classes and keys (client-safe part) and the model's reading. */
export interface FaceAttribute extends LabelAttribute {
  /**
   * The model's label (one of `classes`) and its probability, from the stored raw probabilities — mappings are
   * applied at read time, so they stay recomputable; null when the face has no classifier output.
   */
  predict(face: { raceProbsJson: string | null; genderProbsJson: string | null; ageProbsJson?: string | null }): { value: string; p: number } | null;
}

/**
 * What two runs of a suite are compared on (lib/features/results/suite-comparisons.ts): per (model, group) the
 * per-image scores, each with its entry, for suites whose headline scores are averages over images.
 */
export interface ComparableScores {
  metrics: ReadonlyArray<{ id: string; label: string; better: "higher" | "lower" | "zero" }>;
  /** every metric's possible range */
  range: [number, number];
  /** what the population target resamples, in words ("entries", "prompts") */
  items: string;
  groups: Array<{ model: string; key: string; label: string; units: Array<MeanUnit<string>> }>;
}

/** Two (run, model) sides of one suite to compare (Suite.compare). */
export interface SuiteCompareRequest {
  a: { runId: string; model: string };
  b: { runId: string; model: string };
  labels: "model" | "reviewed";
  profile?: ScoringProfile;
  resamples: number;
  level: number;
  seed: number;
  /** both ran the same content version: draw the same items for both */
  paired: boolean;
  /** only these metrics (an adaptive run's look) */
  metrics?: readonly string[];
}

export interface SuiteComparison {
  /** what the population target resamples, in words */
  items: string;
  /** what the intervals are about (a suite may offer one target only) */
  target: IntervalTarget;
  rows: Array<{ metric: string; metricName: string; group: string; better: "higher" | "lower" | "zero" | "half"; diff: Difference }>;
}

/**
 * One ranking of a suite's rank intervals (Suite.rankArms): a headline score in one group, every (run, model) arm
 * with its resampling units and statistic (lib/metrics/ranks-units.ts). `better`: which way ranks first.
 */
export interface RankGroup {
  metric: string;
  metricName: string;
  group: string;
  better: "higher" | "lower";
  arms: Array<UnitArm<unknown> & { runId: string; model: string }>;
}

/**
 * A suite's own joint replicates for ranking (Suite.rankReplicates): per group and score, every arm's point and its
 * replicate scores, drawn jointly (arms of one content share their draws) by the suite's own design bootstrap.
 */
export interface RankReplicateGroup {
  metric: string;
  metricName: string;
  group: string;
  better: "higher" | "lower";
  arms: Array<{ key: string; runId: string; model: string; point: number | null; replicates: Float64Array }>;
}

export interface SuiteContext {
  prisma: PrismaClient;
}

export interface ResultsRequest {
  runId: string;
  /** which face labels: the pipeline's, or with human corrections */
  labels: "model" | "reviewed";
  /** score only items a reviewer verified */
  verifiedOnly: boolean;
  /** bootstrap: 0 for none */
  resamples: number;
  /** where a paper's text and its released code disagree: which to compute (lib/suites/profiles.ts; default "release") */
  profile?: ScoringProfile;
  /** what the intervals are about (lib/metrics/design.ts; default the population) */
  target?: IntervalTarget;
  /** the intervals' quantile (lib/metrics/design.ts IntervalQuantile; default Student's t): an older bundle's re-scoring */
  quantile?: IntervalQuantile;
}

export interface LookRequest {
  runId: string;
  seed: number;
  /** the look's interval level (lib/metrics/sequential.ts lookLevels) */
  level: number;
  intervalTarget: IntervalTarget;
  /** the quantile the run's rule was launched with (AdaptiveState.quantile; absent there: "normal") */
  quantile: IntervalQuantile;
  target: AdaptiveTarget;
}

export interface DrillRequest {
  runId: string;
  labels: "model" | "reviewed";
  /** the cell: filters the suite understands (model, dimension, intervention …) */
  cell: Record<string, string>;
  page: number;
  profile?: ScoringProfile;
}

export interface Suite<Content extends SuiteContent = SuiteContent, Config = unknown> {
  id: string;
  name: string;
  /** one line for pickers and the home page */
  summary: string;
  /** the Benchmark page's tab for this suite's content, when its name alone would read like another tab's */
  browseLabel?: string;
  paper: { title: string; citation: string };
  /** the audited models' modality for a config */
  modalityOf(config: Config): SuiteModality;
  /** today's content (from data/suites/<id>/), validated */
  content(): Content;
  /** content as pinned in a BenchmarkVersion row (runs are scored from it, never from today's files) */
  parseContent(json: string): Content;
  /**
   * Content versions the suite keeps itself (a team's content sets: lib/features/content), looked up for a launch by
   * the name the user gave — refused with the reason when it may not be launched on (a draft, a retired version).
   * Left out, launches name the suite's stored BenchmarkVersions (lib/suites/content-versions.ts).
   */
  launchContent?(prisma: PrismaClient, version: string): Promise<Content>;
  /** whether a content name is one of this suite's (`fof run --content NAME` finds the suite from it) */
  claimsContent?(version: string): boolean;
  /** the content versions a runner may launch on now, for the launch form's choice (shipped first) */
  contentChoices?(prisma: PrismaClient): Promise<Array<ContentChoice>>;
  /**
   * The expected 95 % half-width of each score a config would reach on this content, from the intervals' simulation
   * (the launch form shows it beside the cost), with warnings where a cell cannot reach ±target.
   */
  precision?(config: Config, content: Content): LaunchPrecision | null;
  configSchema: z.ZodType<Config>;
  presets: Record<string, { label: string; config: Config }>;
  launchFields: readonly LaunchField[];
  /** launch forms of several shapes (see LaunchVariant); without it, one form of launchFields and presets */
  launchVariants?: readonly LaunchVariant[];
  /** the helper model a config needs (a chat model writing guidance), by the field that names it */
  helperModel?(config: Config): string | null;
  /** rows per audited model, without planning (the launch cap is checked first) */
  plannedPerModel(config: Config, content: Content): number;
  helperPlanned?(config: Config, content: Content): number;
  /** chat suites: typical input and output tokens per audited model, for the launch estimate (default: per query) */
  chatTokens?(config: Config, content: Content): { input: number; output: number };
  /** every row, lazily: helpers first, then subject rows (once; the engine repeats them per audited model) */
  plan(config: Config, content: Content, seed: number): Iterable<SuitePlannedQuery>;
  callSettings(config: Config): CallSettings;
  /** reads a chat answer (letters, free text) */
  readAnswer(query: { test: string; attribute: string | null; optionsJson: string }, text: string): AnswerReading;
  /** the face-label attributes its images are labelled and reviewed with */
  faceAttributes: readonly FaceAttribute[];
  /** content browsing on the Benchmark page; `reviewable`: items carry a review state (unreviewed/verified/disputed) */
  items(content: Content): SuiteItem[];
  reviewable: boolean;
  itemColumns: readonly string[];
  /** the run's results as generic views (tables beside published rows, charts, drill-down links) */
  results?(ctx: SuiteContext, req: ResultsRequest): Promise<SuiteView[]>;
  /**
   * Comparisons the suite computes itself, for scores that are not averages over images (weighted averages over
   * prompts, a statistic over prompt pairs); takes precedence over `comparable`.
   */
  compare?(ctx: SuiteContext, req: SuiteCompareRequest): Promise<SuiteComparison>;
  /**
   * Rank intervals across runs (the suite's Results page, /api/results/ranks): per headline score and group, each
   * (run, model) arm's units. Left out, a suite with `comparable` ranks its averages over entries.
   */
  rankArms?(ctx: SuiteContext, req: { runIds: readonly string[]; labels: "model" | "reviewed"; profile?: ScoringProfile }): Promise<RankGroup[]>;
  /** rank replicates from the suite's own stratified design bootstrap (instead of rankArms' unit draws) */
  rankReplicates?(ctx: SuiteContext, req: { runIds: readonly string[]; resamples: number; seed: number }): Promise<RankReplicateGroup[]>;
  /** the per-image scores paired comparisons resample; left out (and no `compare`): the suite offers no comparisons yet */
  comparable?(ctx: SuiteContext, req: { runId: string; labels: "model" | "reviewed"; profile?: ScoringProfile }): Promise<ComparableScores>;
  /**
   * Adaptive runs (lib/metrics/sequential.ts): the scores a target may name (`ddc<=0.05`, `decided:sE`); left out,
   * the suite's runs are always of fixed size. The look itself is registered by the layer that scores the suite.
   */
  adaptiveVocabulary?(config: Config): MetricVocabulary;
  /**
   * How its adaptive runs grow (default: by repeats within every coordinate — every statistic, level and scenario in
   * every wave); `target` is what the run's intervals are about, when the suite's answer depends on it.
   */
  waveUnit?(config: Config, target: IntervalTarget): WaveUnitOf;
  /**
   * The look of an adaptive run (lib/features/runs/adaptive.ts), when the suite scores it itself: every targeted
   * interval at the look's level. Left out, the look registered for the suite by the results layer is taken.
   */
  look?(ctx: SuiteContext, req: LookRequest): Promise<LookRow[]>;
  /** why this config cannot stop on a target although the suite's runs can, or null */
  adaptiveProblem?(config: Config): string | null;
  /** whether its scores differ between the paper's text and the released code (the results offer both profiles) */
  profiles?: boolean;
  drill?(ctx: SuiteContext, req: DrillRequest): Promise<SuiteView[]>;
  /**
   * The run's data for export (JSONL, one object per line; e.g. one line per face, an image without a face one line
   * with a null face), in pages so a large run streams. Suites with their own exports (FACT-OR-FAIR's interchange
   * format) leave it out.
   */
  exportLines?(ctx: SuiteContext, req: { runId: string; labels: "model" | "reviewed" }): AsyncGenerator<Array<Record<string, unknown>>>;
  /**
   * Importing images made elsewhere into a run of this suite (FACT-OR-FAIR has its own scheme in lib/images): how
   * files must be named, where a path goes (throw ImportNameError from lib/images to refuse it), and the
   * configuration an import run records (e.g. images per prompt from the largest folder).
   */
  importer?: {
    naming: string;
    target(path: string, content: Content): { test: string; statisticId: string; level: string };
    config(targets: ReadonlyArray<{ test: string; statisticId: string; level: string }>, content: Content, opts?: { instrument?: LabelInstrument }): Config;
  };
  /** the suite has its own run pages (FACT-OR-FAIR's breakdown, report, answers) instead of the generic view */
  customRunPages?: boolean;
  /**
   * Result views of its own beside the ones every run has (overview, items, report), as tabs of the run's pages:
   * `path` under /runs/<id>/ (e.g. FACT-OR-FAIR's per-statistic breakdown).
   */
  runPages?: ReadonlyArray<{ path: string; label: string }>;
  /** what labels a config's images (default "faces": the face pipeline); fixed on the run at launch */
  labelInstrument?(config: Config): LabelInstrument;
  /** the groups of texts its CLIP instrument reads each whole image with (suites whose configs may choose "clip") */
  clipGroups?: ClipGroups;
  /** how the Label page shows its faces (data the browser applies to the raw probabilities) */
  labelDisplay?: LabelDisplay;
  /**
   * The coordinates its images are filtered by on the Review page, over the image's own columns (item id in
   * statisticId, and the suite's uses of level and test), each with its choices.
   */
  reviewFilters?(content: Content): ReviewFilter[];
  /** why this config cannot be planned on this content (e.g. a method needing passages the content lacks), or null */
  launchProblem?(config: Config, content: Content): string | null;
  /**
   * The config as stored at launch, with settings whose absence means "as runs planned before this setting existed"
   * made explicit: a run launched now records today's behaviour, and a stored run is re-planned (the plan check) as
   * it was planned.
   */
  pinConfig?(config: Config): Config;
  /**
   * Content a user supplies from files (e.g. a paper's official entries, published without a licence so not shipped):
   * read and validated into a content version of its own (lib/suites/content-versions.ts; throws with the reasons).
   */
  dataImport?: {
    /** what to give it, for the form and `fof suite-data import --help` */
    describe: string;
    /** file names it reads from a folder (others are skipped) */
    accepts(name: string): boolean;
    read(files: ReadonlyArray<{ name: string; text: string }>): Content;
  };
}

/**
 * How the Label page shows a face in a suite's classes, as data (the page is a client and knows no suite): per
 * attribute, FairFace's head it reads and how its classes map — "argmax": the most probable FairFace class among those
 * mapped (map[i] = -1: not counted), then its class; "sum": probabilities summed into classes, then the largest.
 */
export interface LabelDisplay {
  /** the mapping in words, shown under the image */
  mapping: string;
  attributes: Array<{
    from: "race" | "gender" | "age";
    classes: readonly string[];
    rule: "argmax" | "sum";
    /** FairFace index → class index; absent: the same order */ map?: readonly number[];
  }>;
}

/** One filter a suite declares (see Suite.reviewFilters), used by the Review page and every run's item list. */
export interface ReviewFilter {
  /**
   * an image/query column, or (context, attribute) the query's — "none" matches a query without one; or "group": a
   * set of items (statisticId values) each option names in `items` (e.g. the prompts requesting one class)
   */
  key: "statisticId" | "level" | "test" | "context" | "attribute" | "group";
  label: string;
  /** `items`: only for "group", resolved on the server (lib/suites/filters.ts); clients get the options without them */
  options: Array<{ value: string; label: string; items?: string[] }>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySuite = Suite<any, any>;
