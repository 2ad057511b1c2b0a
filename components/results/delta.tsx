import { METRIC_INFO } from "@/lib/results/metric-info";
import type { Metric } from "@/lib/published";

/**
 * A score difference ×100, coloured by whether it is an improvement for that metric: up is better for S_fact, S_E,
 * S_KLD and S_fair, down is better for the distance d.
 */
export function Delta({
  value,
  metric,
  better,
  title,
  testId = "delta",
}: {
  value: number | null | undefined;
  metric?: Metric;
  better?: "higher" | "lower";
  title?: string;
  testId?: string;
}) {
  const direction = better ?? (metric ? METRIC_INFO[metric].better : "higher");
  if (value === null || value === undefined)
    return (
      <span data-testid={testId} className="block text-[10px] text-slate-400">
        –
      </span>
    );
  const good = direction === "higher" ? value > 0 : value < 0;
  const tone = value === 0 ? "text-slate-400" : good ? "text-emerald-700" : "text-rose-700";
  return (
    <span data-testid={testId} data-better={value === 0 ? "same" : good ? "yes" : "no"} className={`block text-[10px] tabular-nums ${tone}`} title={title}>
      {value > 0 ? "+" : ""}
      {(value * 100).toFixed(2)}
    </span>
  );
}
