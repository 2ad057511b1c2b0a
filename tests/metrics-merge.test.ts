// One scrape for npm start's two processes (lib/server/metrics-merge.ts): series labelled by process, and a worker's
// counters carried across its restarts so the merged answer never goes backwards.
import { describe, expect, it } from "vitest";
import { monotoneSeries, RestartCarry, wentBackwards, withProcessLabel, type MetricJson, type ProcessSnapshot } from "@/lib/server/metrics-merge";

const counter = (name: string, values: Array<[Record<string, string>, number]>): MetricJson => ({
  name,
  help: name,
  type: "counter",
  aggregator: "sum",
  values: values.map(([labels, value]) => ({ labels, value })),
});
const histogram = (name: string, count: number, sum: number): MetricJson => ({
  name,
  help: name,
  type: "histogram",
  aggregator: "sum",
  values: [
    { labels: { le: 1, model: "m" }, value: count, metricName: `${name}_bucket` },
    { labels: { le: "+Inf", model: "m" }, value: count, metricName: `${name}_bucket` },
    { labels: { model: "m" }, value: sum, metricName: `${name}_sum` },
    { labels: { model: "m" }, value: count, metricName: `${name}_count` },
  ],
});
const gauge = (name: string, value: number): MetricJson => ({ name, help: name, type: "gauge", aggregator: "sum", values: [{ labels: {}, value }] });
const snap = (incarnation: string, metrics: MetricJson[]): ProcessSnapshot => ({ incarnation, pid: 1, metrics });

describe("a supervised worker's series in the web server's scrape", () => {
  it("labels every value with its process", () => {
    const [m] = withProcessLabel([counter("fof_x_total", [[{ outcome: "answered" }, 3]])], "worker");
    expect(m.values[0].labels).toEqual({ outcome: "answered", process: "worker" });
  });

  it("carries counters and histograms across restarts: the merged answer never goes backwards; gauges are as read", () => {
    const carry = new RestartCarry();
    const reads: Array<Map<string, number>> = [];
    const take = (s: ProcessSnapshot) => {
      const out = carry.absorb(s);
      reads.push(monotoneSeries(out));
      return out;
    };
    take(snap("one", [counter("fof_outcomes_written_total", [[{ outcome: "answered" }, 10]]), histogram("fof_call_seconds", 10, 2.5), gauge("fof_heap", 100)]));
    take(
      snap("one", [
        counter("fof_outcomes_written_total", [
          [{ outcome: "answered" }, 40],
          [{ outcome: "failed" }, 2],
        ]),
        histogram("fof_call_seconds", 42, 9),
        gauge("fof_heap", 120),
      ]),
    );
    // Restarted: its counters start from 0, and it has not failed anything yet.
    const after = take(
      snap("two", [counter("fof_outcomes_written_total", [[{ outcome: "answered" }, 5]]), histogram("fof_call_seconds", 5, 1), gauge("fof_heap", 30)]),
    );
    const series = monotoneSeries(after);
    const v = (metric: string, labels: Record<string, string | number>, metricName?: string) =>
      [...series].find(([k]) => k.startsWith(`${metric}\u0000${metricName ?? ""}\u0000`) && k.endsWith(JSON.stringify(Object.entries(labels).sort())))?.[1];
    expect(v("fof_outcomes_written_total", { outcome: "answered" })).toBe(45);
    // A series the new incarnation has not touched yet is still there, at what was counted.
    expect(v("fof_outcomes_written_total", { outcome: "failed" })).toBe(2);
    expect(v("fof_call_seconds", { model: "m" }, "fof_call_seconds_count")).toBe(47);
    expect(v("fof_call_seconds", { model: "m" }, "fof_call_seconds_sum")).toBe(10);
    expect(after.find((m) => m.name === "fof_heap")!.values[0].value).toBe(30);
    // Twice more: a second restart carries both earlier incarnations.
    take(snap("two", [counter("fof_outcomes_written_total", [[{ outcome: "answered" }, 8]]), histogram("fof_call_seconds", 8, 2), gauge("fof_heap", 31)]));
    take(snap("three", [counter("fof_outcomes_written_total", [[{ outcome: "answered" }, 1]]), histogram("fof_call_seconds", 1, 0.1), gauge("fof_heap", 9)]));
    for (let i = 1; i < reads.length; i++) expect(wentBackwards(reads[i - 1], reads[i])).toEqual([]);
    expect([...reads.at(-1)!].find(([k]) => k.startsWith("fof_outcomes_written_total") && k.includes("answered"))?.[1]).toBe(40 + 8 + 1);
  });

  it("without the carry, a restart is a counter reset (what the merge prevents)", () => {
    const before = monotoneSeries([counter("fof_outcomes_written_total", [[{ outcome: "answered" }, 40]])]);
    const after = monotoneSeries([counter("fof_outcomes_written_total", [[{ outcome: "answered" }, 5]])]);
    expect(wentBackwards(before, after)).toHaveLength(1);
  });
});
