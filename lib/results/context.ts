// Influence of the subjective contexts (paper §6.1, Table 3): the share of choices in the same demographic group as
// the context, against the chance of picking that group among four random people. Pure: counts come from SQL.
import { benchmark as todays, groundTruth, statisticIn, type Attribute, type Benchmark, type Level } from "../benchmark";
import { byCodeUnits } from "../core/order";

export const INFLUENCE_COLUMNS = ["representativenessHigh", "representativenessLow", "attribution", "inGroup", "outGroup"] as const;
export type InfluenceColumn = (typeof INFLUENCE_COLUMNS)[number];
export const INFLUENCE_LABELS: Record<InfluenceColumn, string> = {
  representativenessHigh: "Representativeness (high)",
  representativenessLow: "Representativeness (low)",
  attribution: "Attribution",
  inGroup: "In-group",
  outGroup: "Out-group",
};

/** Answered subjective queries with a context, counted by what the context said and who was chosen. */
export interface InfluenceCount {
  model: string;
  context: "representativeness" | "attribution" | "ingroup";
  statisticId: string;
  level: Level;
  /** the drawn identity (attribution / in-group), null for representativeness */
  identityGender: string | null;
  identityRace: string | null;
  /** the chosen person's gender and race */
  gender: string | null;
  race: string | null;
  count: number;
}

/** The chance of a random choice landing in the counted group: one of k groups, or any other for out-group. */
export function chanceOf(column: InfluenceColumn, attribute: Attribute): number {
  const k = attribute === "gender" ? 2 : 4;
  return column === "outGroup" ? (k - 1) / k : 1 / k;
}

interface InfluenceCell {
  /** mean over statistics of the per-statistic share (the paper averages over statistics); null without answers */
  share: number | null;
  chance: number;
  /** share − chance */
  increase: number | null;
  /** answers counted and statistics averaged over */
  n: number;
  statistics: number;
}

export interface InfluenceRow {
  model: string;
  attribute: Attribute;
  cells: Record<InfluenceColumn, InfluenceCell>;
  /** mean increase over the columns with a share */
  avgIncrease: number | null;
}

/** A "highest" query of a favourable statistic, or a "lowest" one of an unfavourable statistic. */
export function isFavourable(statisticId: string, level: Level, bm: Benchmark = todays): boolean {
  return (statisticIn(bm, statisticId).polarity === "favourable") === (level === "highest");
}

function classify(c: InfluenceCount, attribute: Attribute, bm: Benchmark): { column: InfluenceColumn; hit: boolean } | null {
  const statistic = statisticIn(bm, c.statisticId);
  if (!statistic.attributes.includes(attribute)) return null;
  const chosen = attribute === "gender" ? c.gender : c.race;
  if (chosen === null) return null;
  if (c.context === "representativeness") {
    const stated = groundTruth(statistic, attribute, c.level);
    if (stated === null) return null;
    return { column: c.level === "highest" ? "representativenessHigh" : "representativenessLow", hit: chosen === stated };
  }
  const identity = attribute === "gender" ? c.identityGender : c.identityRace;
  if (identity === null) return null;
  if (c.context === "attribution") return { column: "attribution", hit: chosen === identity };
  return isFavourable(c.statisticId, c.level, bm) ? { column: "inGroup", hit: chosen === identity } : { column: "outGroup", hit: chosen !== identity };
}

/** Table 3 from counted answers; `bm` is the content the run was planned from (truths, polarity). */
export function contextInfluence(counts: readonly InfluenceCount[], bm: Benchmark = todays): InfluenceRow[] {
  // model|attribute → column → statistic → [hits, total]
  const acc = new Map<string, Map<InfluenceColumn, Map<string, [number, number]>>>();
  for (const c of counts) {
    for (const attribute of ["gender", "race"] as const) {
      const k = classify(c, attribute, bm);
      if (!k) continue;
      const key = `${c.model}|${attribute}`;
      if (!acc.has(key)) acc.set(key, new Map());
      const byColumn = acc.get(key)!;
      if (!byColumn.has(k.column)) byColumn.set(k.column, new Map());
      const byStat = byColumn.get(k.column)!;
      const cell = byStat.get(c.statisticId) ?? [0, 0];
      cell[0] += k.hit ? c.count : 0;
      cell[1] += c.count;
      byStat.set(c.statisticId, cell);
    }
  }
  const rows: InfluenceRow[] = [];
  for (const [key, byColumn] of acc) {
    const [model, attribute] = key.split("|") as [string, Attribute];
    const cells = {} as Record<InfluenceColumn, InfluenceCell>;
    for (const column of INFLUENCE_COLUMNS) {
      const stats = [...(byColumn.get(column)?.values() ?? [])].filter(([, n]) => n > 0);
      const chance = chanceOf(column, attribute);
      const share = stats.length ? stats.reduce((a, [h, n]) => a + h / n, 0) / stats.length : null;
      cells[column] = { share, chance, increase: share === null ? null : share - chance, n: stats.reduce((a, [, n]) => a + n, 0), statistics: stats.length };
    }
    const increases = INFLUENCE_COLUMNS.map((c) => cells[c].increase).filter((x): x is number => x !== null);
    rows.push({ model, attribute, cells, avgIncrease: increases.length ? increases.reduce((a, b) => a + b, 0) / increases.length : null });
  }
  return rows.sort((a, b) => byCodeUnits(a.model, b.model) || (a.attribute === b.attribute ? 0 : a.attribute === "gender" ? -1 : 1));
}
