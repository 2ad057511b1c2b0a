import { z } from "zod";
import { jsonRead, notFound } from "@/lib/server/http";
import { actorOf, audit } from "@/lib/auth/audit";
import { RACE_MAPPINGS } from "@/lib/faces/labels";
import { DEFAULT_PROFILE, SCORING_PROFILES } from "@/lib/metrics/profiles";
import { db } from "@/lib/db";
import { LABEL_SOURCES } from "@/lib/features/results/run-results";
import { runScoresOff } from "@/lib/server/api/run-reads";
import { runIntervals } from "@/lib/features/results/intervals";
import { scoresCsv } from "@/lib/results/csv";
import { attachment } from "@/lib/results/export";
import { runIdsParam } from "@/lib/results/selection";
import { pointIntervalKey } from "@/lib/results/tradeoff";
import type { BootstrapIntervals } from "@/lib/metrics";
import { intervalTargetParam } from "@/lib/server/api/schemas";
import { DomainError } from "@/lib/core/errors";
import { outcomeCounts } from "@/lib/features/runs/outcomes";
import { outcomeLabel } from "@/lib/core/run-status";
import { suiteOfFace } from "@/lib/suites/faces";
import type { AnySuite } from "@/lib/suites/types";
import { suiteRunsResults } from "@/lib/suites/cross-run";
import { viewsCsv } from "@/lib/suites/export";
import { ITEM_SETS } from "@/lib/suites/review-states";
import { runHeaders } from "@/lib/features/runs/lookups";

const schema = z.strictObject({
  runs: runIdsParam.refine((ids) => ids.length > 0, "name at least one run"),
  format: z.enum(["csv", "json"]).default("csv"),
  labels: z.enum(LABEL_SOURCES).default("model"),
  raceMapping: z.enum(RACE_MAPPINGS).default("paper"),
  /** how d is found for text-to-image groups: release (the authors' scripts, as published) | paper-text */
  profile: z.enum(SCORING_PROFILES).default(DEFAULT_PROFILE),
  /** 1: add bootstrap bounds (computed now if not cached; suites with generic views always carry theirs) */
  intervals: z.enum(["0", "1"]).default("0"),
  target: intervalTargetParam,
  /** suites whose content is reviewed: score every item or only verified ones */
  items: z.enum(ITEM_SETS).default("all"),
});

/** Scores of several runs, one row per run × model × test/context × attribute, as CSV or JSON. */
export const GET = jsonRead("results.read", async (query, { viewer }) => {
  const parsed = { data: schema.parse(query) };
  const { runs: ids, format, labels, raceMapping, profile } = parsed.data;
  const found = await runHeaders(db(), ids);
  const missing = ids.filter((id) => !found.some((r) => r.id === id));
  if (missing.length) throw notFound(`run(s) ${missing.join(", ")}`);
  const suiteIds = [...new Set(found.map((r) => r.suiteId))];
  if (suiteIds.length > 1)
    throw new DomainError("invalid", `runs of one suite at a time (these are of ${suiteIds.join(", ")}): suites' scores are not comparable`);
  const ordered = ids.map((id) => found.find((r) => r.id === id)!).map(({ id, name }) => ({ id, name }));
  await audit(db(), {
    ...actorOf(viewer),
    action: "export",
    targetType: "scores",
    targetId: ids.slice(0, 20).join(",").slice(0, 500),
    details: { runs: ids.length, format, labels, raceMapping, profile },
  });
  const suite = suiteOfFace(suiteIds[0]);
  if (!suite.customRunPages && suite.results) return suiteScores(suite, ordered, parsed.data);
  // Each run's scores on a read thread, cached, limited per account (lib/server/offload.ts).
  const groups = (
    await Promise.all(
      ordered.map(async (run) =>
        ((await runScoresOff(run.id, { labels, raceMapping, profile }, viewer?.id ?? null)) ?? []).map((g) => ({ ...g, run: { id: run.id, name: run.name } })),
      ),
    )
  ).flat();
  const intervals = new Map<string, BootstrapIntervals>();
  if (parsed.data.intervals === "1") {
    for (const run of ordered) {
      const res = await runIntervals(db(), run.id, { labels, raceMapping, profile, target: parsed.data.target });
      for (const g of res?.groups ?? []) intervals.set(pointIntervalKey({ ...g, run }), g.intervals);
    }
  }
  const stamp = new Date().toISOString().slice(0, 10);
  if (format === "csv")
    return attachment(scoresCsv(groups, intervals, profile, parsed.data.target), `fact-or-fair-scores-${profile}-${stamp}.csv`, "text/csv; charset=utf-8");
  const results = groups.map((g) => ({ ...g, intervals: intervals.get(pointIntervalKey(g)) ?? null }));
  return attachment(
    JSON.stringify({ labels, raceMapping, profile, intervalTarget: parsed.data.target, runs: ordered, results }, null, 2) + "\n",
    `fact-or-fair-scores-${profile}-${stamp}.json`,
    "application/json",
  );
});

/** Runs of a suite with generic views: their tables merged (a Run column, published rows once) as a long CSV or JSON. */
async function suiteScores(suite: AnySuite, runs: Array<{ id: string; name: string }>, q: z.infer<typeof schema>) {
  const outcomes = await outcomeCounts(
    db(),
    runs.map((r) => r.id),
  );
  const statuses = new Map(
    (
      await runHeaders(
        db(),
        runs.map((r) => r.id),
      )
    ).map((r) => [r.id, r.status]),
  );
  const caution = (id: string) => {
    const failed = outcomes.get(id)?.failed ?? 0;
    const status = statuses.get(id) ?? "unknown";
    return status === "completed" && !failed ? null : outcomeLabel(status, failed);
  };
  const { tables, provenance, refused } = await suiteRunsResults(
    db(),
    suite,
    runs.map((r) => ({ ...r, caution: caution(r.id) })),
    { labels: q.labels, verifiedOnly: q.items === "verified", resamples: 1000, profile: q.profile },
  );
  const stamp = new Date().toISOString().slice(0, 10);
  const base = `${suite.id}-scores-${q.labels}${suite.profiles ? `-${q.profile}` : ""}-${stamp}`;
  if (q.format === "csv") return attachment(viewsCsv(tables), `${base}.csv`, "text/csv; charset=utf-8");
  const body = {
    suite: { id: suite.id, name: suite.name },
    runs: runs.map((r) => ({ ...r, labelProvenance: provenance[r.id] ?? null })),
    refused,
    labels: q.labels,
    items: q.items,
    ...(suite.profiles ? { profile: q.profile } : {}),
    views: tables,
  };
  return attachment(JSON.stringify(body, null, 2) + "\n", `${base}.json`, "application/json");
}
