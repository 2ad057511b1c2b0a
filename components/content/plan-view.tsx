import type { ContentPlan } from "@/lib/content/plan";
import { Alert } from "@/components/ui/alert";
import { METRIC_INFO } from "@/lib/results/metric-info";
import type { Metric } from "@/lib/published";

/** A content set's plan for a preset: queries, prompt tokens, expected 95 % half-widths per attribute, warnings. */
export function ContentPlanView({ plan, preset }: { plan: ContentPlan; preset: string }) {
  const n = (x: number) => x.toLocaleString("en-US");
  return (
    <div className="space-y-2" data-testid="content-plan">
      <p>
        Preset <b>{preset}</b>: <b className="tabular-nums">{n(plan.queries.total)}</b> queries per model ({n(plan.queries.objective)} objective,{" "}
        {n(plan.queries.subjective)} subjective; contexts {plan.contexts.join(", ")}), about {n(plan.promptTokens)} prompt tokens.
      </p>
      <ul className="list-disc pl-5">
        {plan.attributes.map((a) => (
          <li key={a.attribute}>
            <b>{a.attribute}</b> (k = {a.k}, {a.statistics} statistics with a truth, {a.scenariosPerCell} scenarios per cell):{" "}
            {(Object.keys(METRIC_INFO) as Metric[])
              .filter((m) => a.halfWidth[m] !== null)
              .map((m) => `${METRIC_INFO[m].label} ±${a.halfWidth[m]!.toFixed(3)}`)
              .join(" · ")}
            {a.meetsTarget ? " — meets ±0.05" : a.repeatsForTarget !== null ? ` — ±0.05 needs about ${a.repeatsForTarget} answers per scenario` : ""}
          </li>
        ))}
      </ul>
      {plan.warnings.map((w) => (
        <Alert compact tone="warning" key={w}>
          {w}
        </Alert>
      ))}
    </div>
  );
}
