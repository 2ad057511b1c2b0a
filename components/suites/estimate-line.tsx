import type { SuiteEstimate } from "@/lib/suites/estimate";
import { Alert } from "@/components/ui/alert";
import { METRIC_INFO } from "@/lib/results/metric-info";
import type { Metric } from "@/lib/published";

/** Planned items per model and in total, the estimated cost, and whether it fits the cap and the spending limit. */
export function EstimateLine({
  estimate,
  error,
  spendingLeft,
  budget,
}: {
  estimate: SuiteEstimate | null;
  error: string | null;
  spendingLeft: number | null;
  budget: number | null;
}) {
  if (error)
    return (
      <p data-testid="estimate" className="text-sm text-slate-500">
        No estimate yet: {error}
      </p>
    );
  if (!estimate)
    return (
      <p data-testid="estimate" className="text-sm text-slate-500">
        Estimating…
      </p>
    );
  const n = (x: number) => x.toLocaleString("en-US");
  const unpriced = estimate.models.filter((m) => m.usd === null).map((m) => m.slug);
  const spend = budget ?? estimate.usd;
  return (
    <div data-testid="estimate" className="space-y-1 text-sm">
      <p>
        <b className="tabular-nums">{n(estimate.total)}</b> {estimate.unit} planned ({n(estimate.perModel)} per model × {estimate.models.length} model
        {estimate.models.length === 1 ? "" : "s"}
        {estimate.helper ? ` + ${n(estimate.helper)} helper chat calls` : ""}) · estimated cost <b className="tabular-nums">${estimate.usd.toFixed(2)}</b>
        {unpriced.length ? ` (no price for ${unpriced.join(", ")})` : ""}
      </p>
      {estimate.precision && (
        <div data-testid="precision" className="space-y-1">
          <p className="text-slate-600">Expected 95 % half-widths (simulated on this content&apos;s design; target ±{estimate.precision.target}):</p>
          <ul className="list-disc pl-5 text-slate-700">
            {estimate.precision.attributes.map((a) => (
              <li key={a.attribute}>
                <b>{a.attribute}</b> (k = {a.k}):{" "}
                {(Object.keys(METRIC_INFO) as Metric[])
                  .filter((m) => a.halfWidth[m] !== null && a.halfWidth[m] !== undefined)
                  .map((m) => `${METRIC_INFO[m].label} ±${a.halfWidth[m]!.toFixed(3)}`)
                  .join(" · ")}
                {a.meetsTarget ? " — meets the target" : ""}
              </li>
            ))}
          </ul>
          {estimate.precision.warnings.map((w) => (
            <Alert compact tone="warning" key={w}>
              {w}
            </Alert>
          ))}
        </div>
      )}
      {estimate.overCap && (
        <Alert compact>
          More than one run may plan ({n(estimate.cap)}, FOF_MAX_QUERIES_PER_RUN): use fewer items, images or models, or split it into several runs.
        </Alert>
      )}
      {spendingLeft !== null && spend > spendingLeft && (
        <Alert compact>
          {budget !== null ? `The budget ($${budget.toFixed(2)})` : `The estimate ($${estimate.usd.toFixed(2)})`} is more than what is left of your spending
          limit (${spendingLeft.toFixed(2)})
          {budget !== null ? ": the launch will be refused." : ": set a budget within it, or the run stops when the limit is reached."}
        </Alert>
      )}
    </div>
  );
}
