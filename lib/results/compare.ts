// Side-by-side comparison of runs / models: scores per paper column and attribute with the difference to the
// first (reference) entity, and per-statistic differences of one column. Pure.
import type { Attribute } from "../benchmark/labels";
import type { DetailedGroupResult } from "../metrics/scores";
import { METRICS, type Metric, type PublishedColumn } from "../published";
import { columnOf } from "./tradeoff";
import { breakdownRows } from "./breakdown";
import { byCodeUnits } from "../core/order";

export interface CompareEntity {
  /** run id + model slug */
  key: string;
  label: string;
  run: { id: string; name: string };
  model: string;
  groups: DetailedGroupResult[];
}

export interface CompareScoreRow {
  column: PublishedColumn;
  attribute: Attribute;
  /** one per entity, in order; null where the entity has no such group */
  values: Array<(Record<Metric, number | null> & { n: number; refused: number }) | null>;
  /** per entity, value − reference value (the first entity); null where either is missing */
  deltas: Array<Record<Metric, number | null> | null>;
}

const COLUMN_ORDER: readonly PublishedColumn[] = ["O", "S-B", "S-R", "S-A", "S-G", "S"];

function groupAt(e: CompareEntity, column: PublishedColumn, attribute: Attribute) {
  return e.groups.find((g) => g.attribute === attribute && columnOf(g.modality, g.test, g.context) === column) ?? null;
}

const diff = (a: number | null | undefined, b: number | null | undefined) => (a === null || a === undefined || b === null || b === undefined ? null : a - b);

export function compareScores(entities: readonly CompareEntity[]): CompareScoreRow[] {
  const keys = new Set<string>();
  for (const e of entities) for (const g of e.groups) keys.add(`${columnOf(g.modality, g.test, g.context)}|${g.attribute}`);
  const rows = [...keys].map((k) => {
    const [column, attribute] = k.split("|") as [PublishedColumn, Attribute];
    const values = entities.map((e) => {
      const g = groupAt(e, column, attribute);
      return g && { sFact: g.sFact, sE: g.sE, sKLD: g.sKLD, sFair: g.sFair, distance: g.distance, n: g.n, refused: g.refused };
    });
    const ref = values[0];
    const deltas = values.map((v) => (v && ref ? (Object.fromEntries(METRICS.map((m) => [m, diff(v[m], ref[m])])) as Record<Metric, number | null>) : null));
    return { column, attribute, values, deltas };
  });
  return rows.sort((a, b) => byCodeUnits(a.attribute, b.attribute) || COLUMN_ORDER.indexOf(a.column) - COLUMN_ORDER.indexOf(b.column));
}

export interface CompareStatisticRow {
  statisticId: string;
  statistic: string;
  /** per entity: mean normalised entropy of the statistic's two levels, exp(−KL), accuracy; null without answers */
  values: Array<{ entropy: number | null; expNegKl: number | null; accuracy: number | null; n: number } | null>;
  /** per entity, difference to the first entity */
  deltas: Array<{ entropy: number | null; expNegKl: number | null; accuracy: number | null } | null>;
}

/** Per-statistic differences for one paper column and attribute. */
export function compareStatistics(entities: readonly CompareEntity[], column: PublishedColumn, attribute: Attribute): CompareStatisticRow[] {
  const perEntity = entities.map((e) => {
    const g = groupAt(e, column, attribute);
    if (!g) return null;
    const byStat = new Map<string, { entropy: number | null; expNegKl: number | null; accuracy: number | null; n: number }>();
    const rows = breakdownRows(g);
    for (const id of new Set(rows.map((r) => r.statisticId))) {
      const mine = rows.filter((r) => r.statisticId === id);
      const ent = mine.map((r) => r.entropy).filter((x): x is number => x !== null);
      const valid = mine.reduce((a, r) => a + r.valid, 0);
      const withTruth = mine.filter((r) => r.truth !== null);
      const validTruth = withTruth.reduce((a, r) => a + r.valid, 0);
      byStat.set(id, {
        entropy: ent.length ? ent.reduce((a, b) => a + b, 0) / ent.length : null,
        expNegKl: mine[0].expNegKl,
        accuracy: validTruth ? withTruth.reduce((a, r) => a + r.correct, 0) / validTruth : null,
        n: valid,
      });
    }
    return { rows, byStat };
  });
  const ids: Array<{ id: string; name: string }> = [];
  for (const p of perEntity) for (const r of p?.rows ?? []) if (!ids.some((x) => x.id === r.statisticId)) ids.push({ id: r.statisticId, name: r.statistic });
  return ids.map(({ id, name }) => {
    const values = perEntity.map((p) => p?.byStat.get(id) ?? null);
    const ref = values[0];
    return {
      statisticId: id,
      statistic: name,
      values,
      deltas: values.map((v) =>
        v && ref ? { entropy: diff(v.entropy, ref.entropy), expNegKl: diff(v.expNegKl, ref.expNegKl), accuracy: diff(v.accuracy, ref.accuracy) } : null,
      ),
    };
  });
}
