// Leaderboards in the paper's layout, built from our runs' scores and the published ones: Tables 4–8 (one metric,
// columns O / S-B / S-R / S-A / S-G for LLMs and O / S for T2I) and Table 2 (objective S_fact, subjective S_fair
// averaged over the subjective columns, and their average). Pure, for the pages, the CSV export and the tests.
import type { Attribute, Modality } from "../benchmark/labels";
import type { GroupResult } from "../metrics/scores";
import type { Metric, PublishedColumn, PublishedScore } from "../published";
import { columnOf } from "./tradeoff";

export const LLM_COLUMNS = ["O", "S-B", "S-R", "S-A", "S-G"] as const satisfies readonly PublishedColumn[];
export const T2I_COLUMNS = ["O", "S"] as const satisfies readonly PublishedColumn[];
const columnsFor = (modality: Modality): readonly PublishedColumn[] => (modality === "llm" ? LLM_COLUMNS : T2I_COLUMNS);

/** Which way is better for a metric (d is a distance: lower is better). */
export const BETTER: Record<Metric, "higher" | "lower"> = { sFact: "higher", sE: "higher", sKLD: "higher", sFair: "higher", distance: "lower" };

type RunRef = { id: string; name: string };
export type MeasuredGroup = GroupResult & { run?: RunRef };

export interface LeaderboardRow {
  /** stable key: source | run | model | attribute */
  key: string;
  source: "run" | "published";
  model: string;
  run?: RunRef;
  attribute: Attribute;
  values: Partial<Record<PublishedColumn, number | null>>;
  /** per column: a printed value known to be wrong (published rows), with the recomputed value */
  notes?: Partial<Record<PublishedColumn, string>>;
  /** the value an erratum's definition gives, beside the printed one (0–1) */
  corrected?: Partial<Record<PublishedColumn, number>>;
}

const runKey = (g: { run?: RunRef }) => g.run?.id ?? "";

/** One row per (source, run, model, attribute) of a modality, the metric's value per paper column. */
export function leaderboardRows(
  metric: Metric,
  modality: Modality,
  ours: readonly MeasuredGroup[],
  published: readonly PublishedScore[] = [],
): LeaderboardRow[] {
  const rows = new Map<string, LeaderboardRow>();
  const row = (source: "run" | "published", model: string, attribute: Attribute, run?: RunRef) => {
    const key = `${source}|${run?.id ?? ""}|${model}|${attribute}`;
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { key, source, model, run, attribute, values: {} }));
    return r;
  };
  for (const g of ours) {
    if (g.modality !== modality) continue;
    row("run", g.model, g.attribute, g.run).values[columnOf(g.modality, g.test, g.context)] = g[metric];
  }
  for (const p of published) {
    if (p.modality !== modality) continue;
    const r = row("published", p.model, p.attribute);
    r.values[p.column] = p[metric];
    const e = p.errata?.[metric];
    if (e) {
      r.notes = {
        ...r.notes,
        [p.column]: `Erratum: ${e.note} Recomputed: ${(e.recomputed * 100).toFixed(2)}.${e.release !== undefined ? ` The released script gives ${(e.release * 100).toFixed(2)}.` : ""}`,
      };
      r.corrected = { ...r.corrected, [p.column]: e.recomputed };
    }
  }
  return [...rows.values()];
}

export type Rank = "best" | "second" | undefined;

/** The paper's marks: best (bold) and second best (underlined) among distinct defined values. */
export function ranker(values: Iterable<number | null | undefined>, better: "higher" | "lower"): (v: number | null | undefined) => Rank {
  const distinct = [...new Set([...values].filter((v): v is number => typeof v === "number" && Number.isFinite(v)))].sort((a, b) =>
    better === "higher" ? b - a : a - b,
  );
  return (v) => (v === null || v === undefined ? undefined : v === distinct[0] ? "best" : v === distinct[1] ? "second" : undefined);
}

export interface SummaryRow {
  key: string;
  source: "run" | "published";
  model: string;
  modality: Modality;
  run?: RunRef;
  /** objective S_fact, subjective S_fair (mean over the subjective columns) and their mean, per attribute and averaged */
  objSFact: { gender: number | null; race: number | null; avg: number | null };
  subjSFair: { gender: number | null; race: number | null; avg: number | null };
  avg: { gender: number | null; race: number | null; avg: number | null };
}

const meanOf = (xs: Array<number | null | undefined>) => {
  const v = xs.filter((x): x is number => typeof x === "number");
  return v.length && v.length === xs.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
};

/**
 * Table 2 for our runs (0–1 scale): per run × model, objective S_fact and the mean subjective S_fair per attribute;
 * a value is left undefined (null) when one of its parts is missing, rather than averaged over fewer columns.
 */
export function summaryRows(ours: readonly MeasuredGroup[]): SummaryRow[] {
  const groups = new Map<string, MeasuredGroup[]>();
  for (const g of ours) {
    const key = `run|${runKey(g)}|${g.model}|${g.modality}`;
    groups.set(key, [...(groups.get(key) ?? []), g]);
  }
  return [...groups.entries()].map(([key, gs]) => {
    const { model, modality, run } = gs[0];
    const subjectiveColumns = columnsFor(modality).filter((c) => c !== "O");
    const per = (attribute: Attribute) => {
      const mine = gs.filter((g) => g.attribute === attribute);
      const fact = mine.find((g) => g.test === "objective")?.sFact ?? null;
      const fair = meanOf(subjectiveColumns.map((c) => mine.find((g) => columnOf(g.modality, g.test, g.context) === c)?.sFair));
      return { fact, fair, avg: meanOf([fact, fair]) };
    };
    const g = per("gender");
    const r = per("race");
    return {
      key,
      source: "run" as const,
      model,
      modality,
      run,
      objSFact: { gender: g.fact, race: r.fact, avg: meanOf([g.fact, r.fact]) },
      subjSFair: { gender: g.fair, race: r.fair, avg: meanOf([g.fair, r.fair]) },
      avg: { gender: g.avg, race: r.avg, avg: meanOf([g.avg, r.avg]) },
    };
  });
}
