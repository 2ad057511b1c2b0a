import { z } from "zod";
import { stringify } from "csv-stringify/sync";
import { db } from "@/lib/db";
import { offload } from "@/lib/server/offload";
import { jsonRead, notFound } from "@/lib/server/http";
import { runIdsParam } from "@/lib/results/selection";
import { intervalTargetParam } from "@/lib/results/compare-params";
import { attachment } from "@/lib/results/export";
import { escapeFormula } from "@/lib/results/csv";
import { BOOTSTRAP_METRICS } from "@/lib/metrics/design";
import { DEFAULT_PROFILE, SCORING_PROFILES } from "@/lib/metrics/profiles";
import { DomainError } from "@/lib/core/errors";
import { runHeaders } from "@/lib/features/runs/lookups";
import { DEFAULT_SUITE_ID } from "@/lib/suites";
import { suiteOfFace } from "@/lib/suites/faces";
import { LABEL_SOURCES } from "@/lib/features/results/run-results";

const schema = z.strictObject({
  runs: runIdsParam.refine((ids) => ids.length > 0 && ids.length <= 20, "name 1 to 20 runs"),
  /** FACT-OR-FAIR: the score ranked (other suites rank each of their headline scores) */
  metric: z.enum(BOOTSTRAP_METRICS).default("sFair"),
  target: intervalTargetParam,
  /** other suites: whose face labels, and (suites with profiles) which computation */
  labels: z.enum(LABEL_SOURCES).default("model"),
  profile: z.enum(SCORING_PROFILES).default(DEFAULT_PROFILE),
  format: z.enum(["json", "csv"]).default("json"),
});

const csv = (rows: unknown[][], columns: string[], name: string) =>
  attachment(stringify(rows, { header: true, columns, record_delimiter: "\n", cast: { string: escapeFormula } }), name, "text/csv; charset=utf-8");

/** 95 % rank intervals of every (run, model): FACT-OR-FAIR per paper column and attribute (lib/features/results/ranks.ts), other suites per headline score (suite-ranks.ts). */
export const GET = jsonRead("results.read", async (query, { viewer }) => {
  const q = schema.parse(query);
  const found = await runHeaders(db(), q.runs);
  const missing = q.runs.filter((id) => !found.some((r) => r.id === id));
  if (missing.length) throw notFound(`run(s) ${missing.join(", ")}`);
  const suiteIds = [...new Set(found.map((r) => r.suiteId))];
  if (suiteIds.length > 1) throw new DomainError("invalid", `runs of one suite at a time (these are of ${suiteIds.join(", ")})`);
  if (suiteIds[0] !== DEFAULT_SUITE_ID) {
    const suite = suiteOfFace(suiteIds[0]);
    // A bootstrap over every run's answers: on a read thread, limited per account (lib/server/offload.ts).
    const args = { suiteId: suite.id, runIds: q.runs, labels: q.labels, profile: q.profile };
    const result = await offload("suiteRanks", args, { key: JSON.stringify(args), ttlMs: 5_000, account: viewer?.id ?? null });
    if (q.format === "json") return result;
    const rows = result.rows.map((r) => [r.runId, r.model, r.metric, r.group, r.rank, r.lo, r.hi, r.tiedWith.join(" "), result.target]);
    return csv(rows, ["run_id", "model", "metric", "group", "rank", "rank_lo", "rank_hi", "tied_with", "interval_target"], `${suite.id}-ranks.csv`);
  }
  const args = { runIds: q.runs, metric: q.metric, target: q.target };
  const result = await offload("ranks", args, { key: JSON.stringify(args), ttlMs: 5_000, account: viewer?.id ?? null });
  if (q.format === "json") return result;
  const rows = result.rows.map((r) => [r.runId, r.model, r.column, r.attribute, q.metric, r.rank, r.lo, r.hi, r.tiedWith.join(" "), q.target]);
  const columns = ["run_id", "model", "column", "attribute", "metric", "rank", "rank_lo", "rank_hi", "tied_with", "interval_target"];
  return csv(rows, columns, `fact-or-fair-ranks-${q.metric}.csv`);
});
