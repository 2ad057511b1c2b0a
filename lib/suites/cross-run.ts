// A suite's results across runs (the Results section for suites with generic views): each selected run's tables,
// merged into one table per view with a Run column, the published rows once beside them. A run that did not
// complete cleanly keeps its caution on every row ("completed with 3 failed"), so a table is never ranked silently.
// Charts and drill-down lists stay on each run's page: a chart of ten runs' bars is unreadable, and a list is a page.
import type { IntervalTarget } from "../metrics/design";
import type { PrismaClient } from "../../generated/prisma/client";
import type { AnySuite } from "./types";
import type { SuiteView, TableView, ViewRow } from "./views";
import { cachedSuiteResults } from "./results-cache";
import type { ScoringProfile } from "../metrics/profiles";
import { labelProvenance } from "../faces/run-provenance";
import { mixedClassifiersMessage, provenanceCaution, type LabelProvenance } from "../faces/provenance";

export interface RunViews {
  run: { id: string; name: string; /** a caution for its rows, e.g. "completed with 3 failed"; null when clean */ caution: string | null };
  views: readonly SuiteView[];
}

/** Merges runs' table views (same id → one table); run rows lead with the run's name and drill into that run. */
export function mergeRunViews(perRun: readonly RunViews[]): TableView[] {
  const out = new Map<string, TableView>();
  const published = new Map<string, Set<string>>();
  for (const { run, views } of perRun) {
    for (const v of views) {
      if (v.kind !== "table") continue;
      let merged = out.get(v.id);
      if (!merged) {
        merged = { ...v, labelHeaders: ["Run", ...v.labelHeaders], groups: [] };
        out.set(v.id, merged);
        published.set(v.id, new Set());
      }
      const seen = published.get(v.id)!;
      for (const g of v.groups) {
        let group = merged.groups.find((x) => x.title === g.title);
        if (!group) merged.groups.push((group = { title: g.title, rows: [] }));
        for (const r of g.rows) {
          if (r.source === "published") {
            const key = `${g.title}|${r.labels.join("|")}`;
            if (seen.has(key)) continue;
            seen.add(key);
            group.rows.push({ ...r, labels: ["published", ...r.labels] });
          } else {
            const row: ViewRow = {
              ...r,
              labels: [run.name, ...r.labels],
              drillBase: `/runs/${run.id}/suite`,
              flag: [run.caution, r.flag].filter(Boolean).join("; ") || undefined,
            };
            group.rows.push(row);
          }
        }
      }
    }
  }
  // Ours first within each group (in the order the runs were picked), then the paper's rows.
  for (const t of out.values()) for (const g of t.groups) g.rows.sort((a, b) => Number(a.source === "published") - Number(b.source === "published"));
  return [...out.values()];
}

/**
 * Each run's views (cached per state of its data), merged. What labelled each run's faces comes along: a stand-in's
 * or an unverified classifier's rows carry that caution, and a run whose faces come from two classifiers is left
 * out with the reason (never scored as one).
 */
export async function suiteRunsResults(
  prisma: PrismaClient,
  suite: AnySuite,
  runs: ReadonlyArray<RunViews["run"]>,
  opts: { labels: "model" | "reviewed"; verifiedOnly: boolean; resamples: number; profile: ScoringProfile; target?: IntervalTarget },
): Promise<{ tables: TableView[]; provenance: Record<string, LabelProvenance>; refused: Array<{ run: string; message: string }> }> {
  const perRun: RunViews[] = [];
  const provenance: Record<string, LabelProvenance> = {};
  const refused: Array<{ run: string; message: string }> = [];
  // One run at a time: each reads every labelled image of its run, so parallel runs would multiply the memory.
  for (const run of runs) {
    const p = (provenance[run.id] = await labelProvenance(prisma, [run.id]));
    if (p.mixed) {
      refused.push({ run: run.name, message: mixedClassifiersMessage(p) });
      continue;
    }
    const pc = provenanceCaution(p);
    const caution = [run.caution, pc && !run.caution?.includes(pc) ? pc : null].filter(Boolean).join("; ") || null;
    perRun.push({ run: { ...run, caution }, views: suite.results ? await cachedSuiteResults(prisma, suite, { runId: run.id, ...opts }) : [] });
  }
  return { tables: mergeRunViews(perRun), provenance, refused };
}
