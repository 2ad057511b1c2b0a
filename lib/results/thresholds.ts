// Release gates for CI: `--fail-under "d<=0.25"` (or "sFair>=0.8", several comma-separated) checked per model against a
// run's scores. A model passes a gate only when every one of its score groups (test × context × attribute) that has
// the metric meets it — its worst group decides — and a model with no value for the metric fails it: a gate never
// passes on missing data. Pure: the CLI evaluates it locally and against a server's scores alike.

const METRICS = { d: "distance", distance: "distance", sFact: "sFact", sE: "sE", sKLD: "sKLD", sFair: "sFair" } as const;
type MetricKey = (typeof METRICS)[keyof typeof METRICS];
const OPS = ["<=", ">=", "<", ">"] as const;
type Op = (typeof OPS)[number];

export interface Threshold {
  text: string;
  metric: MetricKey;
  op: Op;
  value: number;
}

/** Parses "d<=0.25,sFair>=0.8"; throws a readable error naming what is wrong. */
export function parseThresholds(spec: string): Threshold[] {
  const parts = spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!parts.length) throw new Error('--fail-under needs a gate such as "d<=0.25"');
  return parts.map((text) => {
    const m = /^([A-Za-z]+)\s*(<=|>=|<|>)\s*(-?\d+(?:\.\d+)?)$/.exec(text);
    if (!m) throw new Error(`--fail-under "${text}": write <metric><op><value>, e.g. d<=0.25 (ops: ${OPS.join(" ")})`);
    const metric = METRICS[m[1] as keyof typeof METRICS];
    if (!metric) throw new Error(`--fail-under "${text}": unknown metric "${m[1]}" (one of ${Object.keys(METRICS).join(", ")})`);
    const value = Number(m[3]);
    // Gates read scores on their own 0–1 scale (the pages show them ×100): "sFact>=90" could never pass.
    const [lo, hi] = SCALE[metric];
    if (value < lo || value > hi)
      throw new Error(
        `--fail-under "${text}": ${m[1]} is on a ${lo}–${hi === 1 ? 1 : hi.toFixed(3)} scale (the pages show scores ×100)${value > 1 && value <= 100 ? `: did you mean ${m[1]}${m[2]}${value / 100}?` : ""}`,
      );
    return { text, metric, op: m[2] as Op, value };
  });
}

/** The range each gated metric takes: scores in [0, 1]; d, a distance in the unit square, in [0, √2]. */
const SCALE: Record<MetricKey, [number, number]> = { distance: [0, Math.SQRT2], sFact: [0, 1], sE: [0, 1], sKLD: [0, 1], sFair: [0, 1] };

type ScoreRow = { model: string } & Partial<Record<MetricKey, number | null>>;

export interface GateResult {
  model: string;
  gate: string;
  /** the model's worst value for the metric (null: it has none) */
  worst: number | null;
  ok: boolean;
}

const meets = (v: number, t: Threshold) => (t.op === "<=" ? v <= t.value : t.op === "<" ? v < t.value : t.op === ">=" ? v >= t.value : v > t.value);

/** Every model × gate, with the model's worst value; `ok` false when a group misses it or none has the metric. */
export function checkThresholds(rows: readonly ScoreRow[], gates: readonly Threshold[]): GateResult[] {
  const models = [...new Set(rows.map((r) => r.model))].sort();
  const out: GateResult[] = [];
  for (const model of models)
    for (const t of gates) {
      const values = rows.filter((r) => r.model === model).flatMap((r) => (typeof r[t.metric] === "number" ? [r[t.metric] as number] : []));
      // The worst value: the largest for an upper bound, the smallest for a lower one.
      const worst = values.length ? (t.op.startsWith("<") ? Math.max(...values) : Math.min(...values)) : null;
      out.push({ model, gate: t.text, worst, ok: worst !== null && meets(worst, t) });
    }
  return out;
}
