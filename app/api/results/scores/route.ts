import { z } from "zod";
import { jsonRead, notFound } from "@/lib/engine/http";
import { audit } from "@/lib/auth/audit";
import { RACE_MAPPINGS } from "@/lib/faces/labels";
import { DEFAULT_PROFILE, SCORING_PROFILES } from "@/lib/suites/profiles";
import { db } from "@/lib/db";
import { LABEL_SOURCES, runIntervals, runsScores } from "@/lib/engine";
import { scoresCsv } from "@/lib/results/csv";
import { attachment } from "@/lib/results/export";
import { runIdsParam } from "@/lib/results/selection";
import { pointIntervalKey } from "@/lib/results/tradeoff";
import type { BootstrapIntervals } from "@/lib/metrics";

const schema = z.strictObject({
  runs: runIdsParam.refine((ids) => ids.length > 0, "name at least one run"),
  format: z.enum(["csv", "json"]).default("csv"),
  labels: z.enum(LABEL_SOURCES).default("model"),
  raceMapping: z.enum(RACE_MAPPINGS).default("paper"),
  /** how d is found for text-to-image groups: release (the authors' scripts, as published) | paper-text */
  profile: z.enum(SCORING_PROFILES).default(DEFAULT_PROFILE),
  /** 1: add bootstrap bounds (computed now if not cached) */
  intervals: z.enum(["0", "1"]).default("0"),
});

/** Scores of several runs, one row per run × model × test/context × attribute, as CSV or JSON. */
export const GET = jsonRead("results.read", async (query, { viewer }) => {
  const parsed = { data: schema.parse(query) };
  const { runs: ids, format, labels, raceMapping, profile } = parsed.data;
  const runs = await db().run.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  const missing = ids.filter((id) => !runs.some((r) => r.id === id));
  if (missing.length) throw notFound(`run(s) ${missing.join(", ")}`);
  const ordered = ids.map((id) => runs.find((r) => r.id === id)!);
  await audit(db(), { userId: viewer?.id ?? null, action: "export", targetType: "scores", targetId: ids.slice(0, 20).join(",").slice(0, 500), details: { runs: ids.length, format, labels, raceMapping, profile } });
  const groups = await runsScores(db(), ordered, { labels, raceMapping, profile });
  const intervals = new Map<string, BootstrapIntervals>();
  if (parsed.data.intervals === "1") {
    for (const run of ordered) {
      const res = await runIntervals(db(), run.id, { labels, raceMapping, profile });
      for (const g of res?.groups ?? []) intervals.set(pointIntervalKey({ ...g, run }), g.intervals);
    }
  }
  const stamp = new Date().toISOString().slice(0, 10);
  if (format === "csv") return attachment(scoresCsv(groups, intervals, profile), `fact-or-fair-scores-${profile}-${stamp}.csv`, "text/csv; charset=utf-8");
  const results = groups.map((g) => ({ ...g, intervals: intervals.get(pointIntervalKey(g)) ?? null }));
  return attachment(JSON.stringify({ labels, raceMapping, profile, runs: ordered, results }, null, 2) + "\n", `fact-or-fair-scores-${profile}-${stamp}.json`, "application/json");
});
