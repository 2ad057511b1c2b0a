// One scrape for two processes: the web server's own series and its supervised worker's (npm start's layout), each
// labelled by `process`, in one Prometheus answer. A worker that restarts starts its counters from 0; the web server
// keeps what the worker had counted when it was last read and adds it to the next incarnation's counts, so a counter
// (and every histogram bucket, sum and count) never goes backwards in the merged answer. Gauges are reported as read.
// What the old worker counted after its last read and before it died is lost (the server reads every few seconds,
// lib/server/process-metrics.ts). Pure: no I/O, tested directly (tests/metrics-merge.test.ts).
import { byCodeUnits } from "../core/order";
/** One value of a metric, as prom-client's getMetricsAsJSON writes it (histograms: metricName x_bucket / _sum / _count). */
export interface MetricValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/** A metric as prom-client's getMetricsAsJSON writes it, and AggregatorRegistry.aggregate reads it. */
export interface MetricJson {
  name: string;
  help: string;
  type: string;
  values: MetricValue[];
  aggregator: string;
}

/** What a process answers about itself: its instruments, and which incarnation of it counted them. */
export interface ProcessSnapshot {
  /** a new value each time the process starts (its counters start from 0 again) */
  incarnation: string;
  pid: number;
  metrics: MetricJson[];
}

const monotone = (m: MetricJson) => m.type === "counter" || m.type === "histogram";
const seriesKey = (metric: string, v: MetricValue) =>
  `${metric}\u0000${v.metricName ?? ""}\u0000${JSON.stringify(Object.entries(v.labels ?? {}).sort(([a], [b]) => byCodeUnits(a, b)))}`;

/** Every value of a snapshot with `process` added to its labels. */
export function withProcessLabel(metrics: readonly MetricJson[], process: string): MetricJson[] {
  return metrics.map((m) => ({ ...m, values: m.values.map((v) => ({ ...v, labels: { ...v.labels, process } })) }));
}

/**
 * A supervised process's counters across its restarts: `absorb` takes each read and answers the series to report,
 * with what earlier incarnations had counted added to every counter and histogram series.
 */
export class RestartCarry {
  private incarnation: string | null = null;
  /** the last read's monotone values, by series */
  private last = new Map<string, { metric: MetricJson; value: MetricValue }>();
  /** what ended incarnations counted, by series */
  private carried = new Map<string, { metric: MetricJson; value: MetricValue }>();

  absorb(snap: ProcessSnapshot): MetricJson[] {
    if (this.incarnation !== null && snap.incarnation !== this.incarnation) {
      // The process restarted: what the last incarnation had counted is carried into every later answer.
      for (const [key, l] of this.last) {
        const c = this.carried.get(key);
        this.carried.set(key, { metric: l.metric, value: { ...l.value, value: (c?.value.value ?? 0) + l.value.value } });
      }
    }
    this.incarnation = snap.incarnation;
    this.last = new Map();
    const seen = new Set<string>();
    const out: MetricJson[] = snap.metrics.map((m) => {
      if (!monotone(m)) return m;
      const values = m.values.map((v) => {
        const key = seriesKey(m.name, v);
        this.last.set(key, { metric: m, value: v });
        seen.add(key);
        const c = this.carried.get(key);
        return c ? { ...v, value: v.value + c.value.value } : v;
      });
      return { ...m, values };
    });
    // Series an earlier incarnation counted that this one has not touched yet: still reported, at what was counted.
    for (const [key, c] of this.carried) {
      if (seen.has(key)) continue;
      let metric = out.find((m) => m.name === c.metric.name);
      if (!metric) out.push((metric = { ...c.metric, values: [] }));
      metric.values = [...metric.values, c.value];
    }
    return out;
  }
}

/** Prometheus's own rule for a counter reset, for tests: a value below the one before. */
export function wentBackwards(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): string[] {
  return [...before].filter(([k, v]) => (after.get(k) ?? 0) < v).map(([k]) => k);
}

/** Every monotone series of a merged answer as key → value (tests compare two scrapes with it). */
export function monotoneSeries(metrics: readonly MetricJson[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of metrics) if (monotone(m)) for (const v of m.values) out.set(seriesKey(m.name, v), v.value);
  return out;
}
