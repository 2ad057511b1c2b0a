// Whether a bundle's rows are whole: every planned query there once, one outcome per finished query and none for
// the rest, an image for every answered image query, and every face, label, gold label and reading attached to a row
// the bundle has. Rows are fed in the bundle's order (a row's references come first); each is returned as it may be
// inserted into the verifier's database, or null when it must stay out (it points at a row the bundle lacks — named
// as a problem, never silently dropped). Platform-free: `fof verify` streams rows through it, the browser verifier
// feeds it unpacked files, and both reach the same verdicts.
import { badDates, instantMs } from "./instant";
import { loneSurrogates } from "./lone-surrogates";

export type Row = Record<string, unknown>;

/** The table files of a bundle, in the order a verifier reads and inserts them, with their database table. */
export const TABLE_FILES = [
  { file: "queries.jsonl", table: "Query" },
  { file: "outcomes.jsonl", table: "Outcome" },
  { file: "images.jsonl", table: "Image" },
  { file: "faces.jsonl", table: "Face" },
  { file: "annotations.jsonl", table: "Annotation" },
  { file: "annotation-values.jsonl", table: "AnnotationValue" },
  { file: "gold-labels.jsonl", table: "GoldLabel" },
  { file: "annotator-exclusions.jsonl", table: "AnnotatorExclusion" },
  { file: "image-readings.jsonl", table: "ImageReading" },
  // format v3: a chain-of-thought run's explanations as reviewed — the sample (assignments and their items), readings,
  // gold, and the judge (its model's declared identity, its passes, its judgments); empty for other runs
  { file: "review-assignments.jsonl", table: "Assignment" },
  { file: "review-items.jsonl", table: "AssignmentItem" },
  { file: "explanation-readings.jsonl", table: "ExplanationReading" },
  { file: "explanation-gold.jsonl", table: "ExplanationGold" },
  { file: "judge-models.jsonl", table: "ModelConfig" },
  { file: "judge-passes.jsonl", table: "JudgePass" },
  { file: "explanation-judgments.jsonl", table: "ExplanationJudgment" },
] as const;
export type TableFileName = (typeof TABLE_FILES)[number]["file"];
export const TABLE_FILE_NAMES: ReadonlySet<string> = new Set(TABLE_FILES.map((t) => t.file));
/** The table files format v3 added (explanation review). */
const EXPLANATION_FILES = TABLE_FILES.slice(9).map((t) => t.file);
/** A v3 bundle's explanation results as stated (null for a run that did not reason): re-computed by both verifiers. */
export const EXPLANATIONS_NAME = "explanations.json";
export const CURRENT_FORMAT = "fof-evidence/v3";

/**
 * Every file a bundle of this format must list (empty table files too: "none" is told from "left out"), for both
 * verifiers alike. The manifest and envelope are checked apart.
 */
export function requiredFiles(format: string): string[] {
  const v1 = [
    "run.json",
    "content.json",
    "models.jsonl",
    "run-models.jsonl",
    ...TABLE_FILE_NAMES,
    "scores.json",
    "software.json",
    "report.html",
    "signer-public-key.pem",
  ].filter((f) => !EXPLANATION_FILES.includes(f as TableFileName));
  if (format === "fof-evidence/v1") return v1;
  const v2 = [...v1, "design.dsse.json", "log-proof.json"];
  return format === "fof-evidence/v2" ? v2 : [...v2, ...EXPLANATION_FILES, EXPLANATIONS_NAME];
}

/** Whether a run's row says it reasoned first (a chain-of-thought configuration): its bundle must carry its explanations. */
export function runReasoned(run: { suiteId?: unknown; configJson?: unknown } | null): boolean {
  try {
    return (JSON.parse(String(run?.configJson)) as { cot?: unknown }).cot === true;
  } catch {
    return false;
  }
}

const FINISHED = new Set(["answered", "refused", "failed"]);
/** What a query's status may be (lib/core/run-status.ts QUERY_STATUSES). */
const QUERY_STATUSES = new Set(["pending", "leased", "answered", "refused", "failed"]);
const MAX_PROBLEMS = 20;

export class Completeness {
  private readonly status = new Map<number, string>();
  private readonly outcomes = new Map<number, number>();
  /** answered text-to-image queries, which must each have their image */
  private readonly imageQueries = new Set<number>();
  private readonly imaged = new Set<number>();
  private readonly images = new Set<string>();
  private readonly faces = new Set<number>();
  private readonly annotations = new Set<number>();
  /** outcome ids (explanations are read by outcome), review assignments, judge models and passes */
  private readonly outcomeIds = new Set<number>();
  private readonly assignments = new Set<string>();
  private readonly judgeModels = new Set<string>();
  private readonly passes = new Set<string>();
  private readonly problems: string[] = [];
  private more = 0;
  private outcomeCount = 0;
  /** outcomes that say their answer is another run's, by that run ("" when not recorded) */
  private readonly reused = new Map<string, number>();
  /** the longest a reused answer waited between being obtained and being taken (ms), and any taken before obtained */
  private reuseWait = 0;
  private reuseAhead = 0;
  /** the earliest outcome and the sum of what outcomes cost */
  private firstOutcome = Infinity;
  private outcomeCost = 0;
  /** what the run's launch allowed it to reuse (set by finish), said in the summary */
  private allowedReuse: string | null = null;

  constructor(
    private readonly runId: string,
    /** the manifest's format: v3 and later carry a reasoning run's explanations */
    private readonly format = CURRENT_FORMAT,
  ) {}

  private problem(p: string) {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(p);
    else this.more++;
  }

  /** the row to insert, or null to leave it out */
  add(file: TableFileName, row: Row): Row | null {
    for (const p of [...badDates(file, row), ...loneSurrogates(file, row)]) this.problem(p);
    switch (file) {
      case "queries.jsonl": {
        const id = Number(row.id);
        if (this.status.has(id)) return (this.problem(`query ${id} appears twice`), null);
        if (!QUERY_STATUSES.has(String(row.status))) this.problem(`query ${id} has the status "${String(row.status).slice(0, 40)}", which no query has`);
        if (row.modality !== "llm" && row.modality !== "t2i") this.problem(`query ${id} has the modality "${String(row.modality).slice(0, 40)}"`);
        this.status.set(id, String(row.status));
        if (row.modality === "t2i" && row.status === "answered") this.imageQueries.add(id);
        // a query that waits for one the bundle lacks: named, and kept out of the database's way
        if (row.dependsOnId !== null && row.dependsOnId !== undefined && !this.status.has(Number(row.dependsOnId))) {
          this.problem(`query ${id} depends on query ${row.dependsOnId}, which the bundle does not have`);
          return { ...row, dependsOnId: null };
        }
        return row;
      }
      case "outcomes.jsonl": {
        const q = Number(row.queryId);
        this.outcomes.set(q, (this.outcomes.get(q) ?? 0) + 1);
        // an outcome says what its query ended as: scores count the query's status, readings the outcome's
        if (this.status.has(q) && this.status.get(q) !== row.status)
          this.problem(`query ${q} is ${this.status.get(q)}, its outcome says ${String(row.status).slice(0, 40)}`);
        this.outcomeCount++;
        const at = instantMs(row.createdAt);
        if (Number.isFinite(at)) this.firstOutcome = Math.min(this.firstOutcome, at);
        if (typeof row.costUsd === "number") this.outcomeCost += row.costUsd;
        if (typeof row.reusedFromRunId === "string") {
          this.reused.set(row.reusedFromRunId, (this.reused.get(row.reusedFromRunId) ?? 0) + 1);
          const obtained = instantMs(row.reusedAt);
          if (!Number.isFinite(obtained) || obtained > at) this.reuseAhead++;
          else this.reuseWait = Math.max(this.reuseWait, at - obtained);
        }
        // counted, but only the first outcome of a query the bundle has goes in (finish() names the rest)
        if (this.status.has(q) && this.outcomes.get(q) === 1) {
          this.outcomeIds.add(Number(row.id));
          return row;
        }
        return null;
      }
      case "images.jsonl": {
        const id = String(row.id);
        if (this.images.has(id)) return (this.problem(`image ${id} appears twice`), null);
        if (row.runId !== this.runId) return (this.problem(`image ${id} belongs to another run`), null);
        if (row.queryId !== null && row.queryId !== undefined) {
          if (!this.status.has(Number(row.queryId))) return (this.problem(`image ${id} answers query ${row.queryId}, which the bundle does not have`), null);
          // an image is written with its query's answer: one beside a query recorded otherwise was un-counted
          if (this.status.get(Number(row.queryId)) !== "answered")
            this.problem(`image ${id} answers query ${row.queryId}, which is recorded as ${this.status.get(Number(row.queryId))}`);
          this.imaged.add(Number(row.queryId));
        }
        this.images.add(id);
        return row;
      }
      case "faces.jsonl":
        if (!this.images.has(String(row.imageId))) return (this.problem(`face ${row.id} is on image ${row.imageId}, which the bundle does not have`), null);
        this.faces.add(Number(row.id));
        return row;
      case "annotations.jsonl":
        if (!this.faces.has(Number(row.faceId))) return (this.problem(`label ${row.id} is of face ${row.faceId}, which the bundle does not have`), null);
        this.annotations.add(Number(row.id));
        return row;
      case "annotation-values.jsonl":
        if (!this.annotations.has(Number(row.annotationId)))
          return (this.problem(`a label value of label ${row.annotationId}, which the bundle does not have`), null);
        return row;
      case "gold-labels.jsonl":
        if (!this.faces.has(Number(row.faceId))) return (this.problem(`a gold label of face ${row.faceId}, which the bundle does not have`), null);
        return row;
      case "image-readings.jsonl":
        if (!this.images.has(String(row.imageId))) return (this.problem(`a reading of image ${row.imageId}, which the bundle does not have`), null);
        return row;
      case "annotator-exclusions.jsonl":
        return row;
      case "review-assignments.jsonl":
        // only this run's explanation samples: a sample of another run (or of faces) changes nothing here
        if (row.kind !== "explanations" || row.scopeJson !== JSON.stringify({ runIds: [this.runId] }))
          return (this.problem(`review assignment ${String(row.id).slice(0, 40)} is not a sample of this run's explanations`), null);
        this.assignments.add(String(row.id));
        return row;
      case "review-items.jsonl":
        if (!this.assignments.has(String(row.assignmentId)) || row.imageId !== null || !this.outcomeIds.has(Number(row.outcomeId)))
          return (this.problem(`review item ${row.id} is not an explanation of this run in one of its samples`), null);
        return row;
      case "explanation-readings.jsonl":
      case "explanation-gold.jsonl":
        if (!this.outcomeIds.has(Number(row.outcomeId)))
          return (this.problem(`a reading or gold mark of outcome ${row.outcomeId}, which the bundle does not have`), null);
        return row;
      case "judge-models.jsonl":
        if (this.judgeModels.has(String(row.id)) || row.modality !== "llm")
          return (this.problem(`judge model ${String(row.id).slice(0, 40)} appears twice or is not a chat model`), null);
        this.judgeModels.add(String(row.id));
        return row;
      case "judge-passes.jsonl":
        if (row.runId !== this.runId) return (this.problem(`judge pass ${String(row.id).slice(0, 40)} belongs to another run`), null);
        this.passes.add(String(row.id));
        return row;
      case "explanation-judgments.jsonl":
        if (!this.passes.has(String(row.passId)) || !this.outcomeIds.has(Number(row.outcomeId)))
          return (this.problem(`judgment ${row.id} is of a pass or an outcome the bundle does not have`), null);
        return row;
    }
  }

  /** the problems found, given the run's own row; empty when the rows are whole */
  finish(
    run: {
      id?: unknown;
      plannedCount?: unknown;
      status?: unknown;
      reuseJson?: unknown;
      createdAt?: unknown;
      startedAt?: unknown;
      finishedAt?: unknown;
      budgetUsd?: unknown;
      spentUsd?: unknown;
      suiteId?: unknown;
      configJson?: unknown;
    } | null,
  ): string[] {
    if (!run || run.id !== this.runId) this.problem("run.json is another run than the Statement's");
    // a run that reasoned first is judged by its explanations too: a bundle of an older format carries none
    if (runReasoned(run) && (this.format === "fof-evidence/v1" || this.format === "fof-evidence/v2"))
      this.problem(`the run reasoned first (chain of thought), yet its bundle (${this.format}) carries no explanations`);
    // Times and money the rows can be held to (the launch time is the design's, which the design check signs): no
    // answer before the launch, no start before it, no end before the start; no more spent on answers than the run
    // spent; a budget stop only with a budget.
    for (const p of badDates("run.json", run)) this.problem(p);
    const launched = instantMs(run?.createdAt);
    const time = (v: unknown) => (v === null || v === undefined ? null : instantMs(v));
    const [started, finished] = [time(run?.startedAt), time(run?.finishedAt)];
    // (a minute's slack: the start is stamped by the launching process, the launch row by the database a moment later)
    const SLACK = 60_000;
    if (Number.isFinite(launched)) {
      if (this.firstOutcome < launched - SLACK) this.problem(`an outcome is dated ${new Date(this.firstOutcome).toISOString()}, before the run's launch`);
      if (started !== null && !(started >= launched - SLACK)) this.problem("the run is recorded as started before it was launched");
    }
    if (started !== null && finished !== null && !(finished >= started)) this.problem("the run is recorded as finished before it started");
    if (typeof run?.spentUsd === "number" && this.outcomeCost > run.spentUsd + 1e-6)
      this.problem(`its outcomes cost $${this.outcomeCost.toFixed(6)}, more than the run's recorded spend of $${run.spentUsd.toFixed(6)}`);
    if (run?.status === "budget_exhausted" && (run.budgetUsd === null || run.budgetUsd === undefined))
      this.problem("the run is recorded as stopped by its budget, yet it had none");
    this.allowedReuse = typeof run?.reuseJson === "string" && run.reuseJson ? run.reuseJson : null;
    // Another run's answers only where the launch asked (its design signs what it asked), and only from the run named.
    if (this.reused.size) {
      let allowed: { fromRun?: unknown } | null = null;
      try {
        allowed = typeof run?.reuseJson === "string" ? (JSON.parse(run.reuseJson) as { fromRun?: unknown }) : null;
      } catch {
        this.problem("the run's answer-reuse setting cannot be read");
      }
      const n = [...this.reused.values()].reduce((a, b) => a + b, 0);
      if (!allowed) this.problem(`${n} outcomes say their answers are other runs', yet the run's launch asked to reuse none`);
      else {
        if (typeof allowed.fromRun === "string")
          for (const [from, k] of this.reused)
            if (from !== allowed.fromRun)
              this.problem(`${k} outcomes took answers from ${from ? `run ${from}` : "an unrecorded run"}; the launch named run ${allowed.fromRun}`);
        if (this.reused.has(this.runId)) this.problem("outcomes say they reused this run's own answers");
        if (this.reuseAhead) this.problem(`${this.reuseAhead} reused answers were taken before they were obtained (or say no time)`);
        const maxAge = (allowed as { maxAgeHours?: unknown }).maxAgeHours;
        if (typeof maxAge === "number" && this.reuseWait > maxAge * 3_600_000 + 60_000)
          this.problem(`a reused answer was ${(this.reuseWait / 3_600_000).toFixed(1)} hours old when taken; the launch allowed ${maxAge}`);
      }
    }
    // A completed run called every query it kept: one left unfinished was taken out of the count, not run.
    if (run?.status === "completed") {
      const open = [...this.status].filter(([, s]) => !FINISHED.has(s)).map(([id]) => id);
      if (open.length)
        this.problem(`the run is completed, yet ${open.length} of its queries never ended (${open.slice(0, 5).join(", ")}${open.length > 5 ? ", …" : ""})`);
    }
    if (Number(run?.plannedCount) !== this.status.size) this.problem(`the run planned ${run?.plannedCount} queries; the bundle has ${this.status.size}`);
    for (const [id, s] of this.status) {
      const n = this.outcomes.get(id) ?? 0;
      if (FINISHED.has(s) && n !== 1) this.problem(`query ${id} (${s}) has ${n} outcomes`);
      if (!FINISHED.has(s) && n) this.problem(`query ${id} (${s}) has an outcome`);
    }
    for (const id of this.outcomes.keys()) if (!this.status.has(id)) this.problem(`an outcome of query ${id}, which the bundle does not have`);
    for (const id of this.imageQueries) if (!this.imaged.has(id)) this.problem(`query ${id} was answered with an image the bundle does not have`);
    return this.more ? [...this.problems, `and ${this.more} more`] : this.problems;
  }

  get summary() {
    const n = (x: number) => x.toLocaleString("en-US");
    const parts = [`${n(this.status.size)} queries`, `${n(this.outcomeCount)} outcomes, one per finished query`];
    // A run that did not complete may leave queries unasked; which ones is the team's word (docs/evidence.md, limits).
    const open = [...this.status.values()].filter((s) => !FINISHED.has(s)).length;
    if (open) parts.push(`${n(open)} never ended — that they were not asked is the team's word`);
    if (this.images.size) parts.push(`${n(this.images.size)} images`, `${n(this.faces.size)} faces`, `${n(this.annotations.size)} human labels`);
    const reused = [...this.reused.values()].reduce((a, b) => a + b, 0);
    // The permission is signed (the design); which answers were reused is the team's word — any may have been.
    if (this.allowedReuse)
      parts.push(
        `its launch allowed answers obtained by other runs (${this.allowedReuse}): ${n(reused)} say they were reused — the team's word; any answer may be another run's`,
      );
    return parts.join(", ");
  }
}
