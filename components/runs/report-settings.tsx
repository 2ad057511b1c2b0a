// The settings a run was launched with, for every suite's printable report: status as it ended (failures named),
// seed, dates, the content it pinned, each model's settings as snapshotted at launch, and the configuration.
import type { ReactNode } from "react";
import { db } from "@/lib/db";
import { outcomeCounts } from "@/lib/features/runs/outcomes";
import { outcomeLabel } from "@/lib/core/run-status";
import { type ModelSnapshot } from "@/lib/features/runs/runs";
import type { ReportRun } from "@/lib/features/runs/lookups";
import { Table, Td, Th } from "@/components/ui/table";

export const reportDate = (d: Date | null) => (d ? d.toISOString().replace("T", " ").slice(0, 19) + " UTC" : "–");
const date = reportDate;

/** `extra`: suite-specific settings rows (dt/dd pairs) shown after the common ones. */
export async function ReportSettings({ run, extra }: { run: ReportRun; extra?: ReactNode }) {
  const counts = (await outcomeCounts(db(), [run.id])).get(run.id);
  const outcome = outcomeLabel(run.status, counts?.failed ?? 0);
  return (
    <section>
      <h2 className="mb-2 text-base font-semibold">Settings</h2>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
        <dt className="text-slate-500">Modality</dt>
        <dd>{run.modality}</dd>
        <dt className="text-slate-500">Status</dt>
        <dd>{outcome}</dd>
        <dt className="text-slate-500">Preset</dt>
        <dd>{run.preset}</dd>
        <dt className="text-slate-500">Seed</dt>
        <dd className="tabular-nums">{run.seed}</dd>
        <dt className="text-slate-500">Planned items</dt>
        <dd className="tabular-nums">{run.plannedCount.toLocaleString("en-US")}</dd>
        <dt className="text-slate-500">Spent</dt>
        <dd className="tabular-nums">
          ${run.spentUsd.toFixed(4)}
          {run.budgetUsd !== null ? ` of $${run.budgetUsd}` : ""}
        </dd>
        <dt className="text-slate-500">Created</dt>
        <dd>{date(run.createdAt)}</dd>
        <dt className="text-slate-500">Started</dt>
        <dd>{date(run.startedAt)}</dd>
        <dt className="text-slate-500">Finished</dt>
        <dd>{date(run.finishedAt)}</dd>
        <dt className="text-slate-500">Content</dt>
        <dd>
          {run.benchmarkVersion.version} <span className="font-mono text-xs">{run.benchmarkVersion.sha256.slice(0, 12)}</span>
        </dd>
        {extra}
      </dl>
      <h3 className="mb-1 mt-3 text-sm font-semibold">Models (settings at launch)</h3>
      <Table data-testid="model-snapshots">
        <thead>
          <tr>
            <Th>Slug</Th>
            <Th>Label</Th>
            <Th>Provider</Th>
            <Th>Model version</Th>
            <Th>Endpoint</Th>
            <Th>Parameters</Th>
            <Th>Prices</Th>
          </tr>
        </thead>
        <tbody>
          {run.models.map(({ modelConfig: current, settingsJson }) => {
            // The snapshot taken at launch; runs from before snapshots existed fall back to today's settings.
            const snap = settingsJson && settingsJson !== "{}" ? (JSON.parse(settingsJson) as ModelSnapshot) : null;
            const m = snap ?? {
              ...current,
              params: JSON.parse(current.paramsJson) as Record<string, unknown>,
              priceInputPer1k: null,
              priceOutputPer1k: null,
              pricePerImage: null,
              takenAt: null,
            };
            return (
              <tr key={m.slug}>
                <Td>{m.slug}</Td>
                <Td>{m.label}</Td>
                <Td>{m.provider}</Td>
                <Td className="font-mono text-xs">{m.modelId}</Td>
                <Td className="font-mono text-xs break-all">{m.baseUrl ?? "provider default"}</Td>
                <Td className="font-mono text-xs">{JSON.stringify(m.params)}</Td>
                <Td className="text-xs">
                  {m.priceInputPer1k === null
                    ? "– (no snapshot)"
                    : run.modality === "t2i"
                      ? `$${m.pricePerImage}/image`
                      : `$${m.priceInputPer1k} / $${m.priceOutputPer1k} per 1k`}
                </Td>
              </tr>
            );
          })}
        </tbody>
      </Table>
      <details className="mt-2 text-xs">
        <summary className="cursor-pointer">Run configuration</summary>
        <pre className="whitespace-pre-wrap rounded bg-slate-50 p-2">{JSON.stringify(JSON.parse(run.configJson), null, 2)}</pre>
      </details>
    </section>
  );
}
