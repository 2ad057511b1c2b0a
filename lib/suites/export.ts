// A suite run's results for download and the CLI: its views as JSON, its tables as one long CSV (a row per table
// row × metric, so tables of different shapes share one header), its data as the suite's JSONL lines.
import { stringify } from "csv-stringify/sync";
import type { PrismaClient } from "../../generated/prisma/client";
import { escapeFormula } from "../results/csv";
import { DEFAULT_SUITE_ID, suiteOf } from ".";
import type { AnySuite } from "./types";
import type { SuiteView } from "./views";
import { cachedSuiteResults } from "./results-cache";
import { DEFAULT_PROFILE, type ScoringProfile } from "../metrics/profiles";
import { labelProvenance as runLabelProvenance } from "../faces/run-provenance";
import { provenanceCaution } from "../faces/provenance";

/** The run's suite when it has generic results (views) rather than its own exports; null otherwise. */
export async function genericSuiteOfRun(prisma: PrismaClient, runId: string): Promise<{ suite: AnySuite; version: string | null } | null> {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { suiteId: true, suiteVersion: true } });
  if (!run) return null;
  const suite = suiteOf(run.suiteId ?? DEFAULT_SUITE_ID);
  return suite.customRunPages || !suite.results ? null : { suite, version: run.suiteVersion };
}

/** Scores as JSON: the run's summary views (tables and charts; drill-down lists are pages, not results). */
export async function suiteResultsJson(
  prisma: PrismaClient,
  runId: string,
  s: { suite: AnySuite; version: string | null },
  opts: { labels: "model" | "reviewed"; verifiedOnly?: boolean; resamples?: number; profile?: ScoringProfile },
) {
  const profile = opts.profile ?? DEFAULT_PROFILE;
  const views = await cachedSuiteResults(prisma, s.suite, {
    runId,
    labels: opts.labels,
    verifiedOnly: opts.verifiedOnly ?? false,
    resamples: opts.resamples ?? 1000,
    profile,
  });
  // What labelled the faces travels with the numbers: a stand-in's or an unverified classifier's are flagged.
  const labelProvenance = await runLabelProvenance(prisma, [runId]);
  const caution = provenanceCaution(labelProvenance);
  const flagged = views
    .filter((v) => v.kind !== "list")
    .map((v) =>
      caution && v.kind === "table"
        ? {
            ...v,
            groups: v.groups.map((g) => ({
              ...g,
              rows: g.rows.map((r) => (r.source === "published" ? r : { ...r, flag: [caution, r.flag].filter(Boolean).join("; ") })),
            })),
          }
        : v,
    );
  // The profile is named only where the suite scores differently under it.
  return {
    suite: { id: s.suite.id, name: s.suite.name, version: s.version },
    run: runId,
    labels: opts.labels,
    verifiedOnly: opts.verifiedOnly ?? false,
    ...(s.suite.profiles ? { profile } : {}),
    labelProvenance,
    caution,
    views: flagged,
  };
}

const VIEWS_CSV_COLUMNS = ["view", "group", "source", "row", "metric", "value", "lo", "hi", "n", "flag"] as const;

/** Every table row × column as one CSV line (values in the column's scale; text cells neutralised for spreadsheets). */
export function viewsCsv(views: readonly SuiteView[]): string {
  const rows: Array<Array<string | number | null>> = [];
  for (const v of views) {
    if (v.kind !== "table") continue;
    for (const g of v.groups)
      for (const r of g.rows)
        for (const c of v.columns) {
          const cell = r.cells[c.id];
          rows.push([
            v.id,
            g.title,
            r.source,
            r.labels.join(" · "),
            c.label,
            cell?.value ?? null,
            cell?.lo ?? null,
            cell?.hi ?? null,
            cell?.n ?? null,
            r.flag ?? null,
          ]);
        }
  }
  const text = (x: string | number | null) => (typeof x === "string" ? escapeFormula(x) : x);
  return stringify([[...VIEWS_CSV_COLUMNS], ...rows.map((r) => r.map(text))]);
}
