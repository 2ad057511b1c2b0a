import { z } from "zod";
import { stringify } from "csv-stringify/sync";
import { db } from "@/lib/db";
import { runsRankIntervals } from "@/lib/features/results/ranks";
import { jsonRead } from "@/lib/server/http";
import { runIdsParam } from "@/lib/results/selection";
import { intervalTargetParam } from "@/lib/results/compare-params";
import { attachment } from "@/lib/results/export";
import { escapeFormula } from "@/lib/results/csv";
import { BOOTSTRAP_METRICS } from "@/lib/metrics/design";

const schema = z.strictObject({
  runs: runIdsParam.refine((ids) => ids.length > 0 && ids.length <= 20, "name 1 to 20 runs"),
  metric: z.enum(BOOTSTRAP_METRICS).default("sFair"),
  target: intervalTargetParam,
  format: z.enum(["json", "csv"]).default("json"),
});

/** 95 % rank intervals of every (run, model) per paper column and attribute (lib/features/results/ranks.ts). */
export const GET = jsonRead("results.read", async (query) => {
  const q = schema.parse(query);
  const result = await runsRankIntervals(db(), q.runs, q.metric, q.target);
  if (q.format === "json") return result;
  const rows = result.rows.map((r) => [r.runId, r.model, r.column, r.attribute, q.metric, r.rank, r.lo, r.hi, r.tiedWith.join(" "), q.target]);
  const columns = ["run_id", "model", "column", "attribute", "metric", "rank", "rank_lo", "rank_hi", "tied_with", "interval_target"];
  return attachment(
    stringify(rows, { header: true, columns, record_delimiter: "\n", cast: { string: escapeFormula } }),
    `fact-or-fair-ranks-${q.metric}.csv`,
    "text/csv; charset=utf-8",
  );
});
