"use client";
// The import form's outcome (what was stored, or every problem that stopped it) and the mapping preview.
import Link from "next/link";
import type { ImportProblem, NameMapping } from "@/lib/images/import-names";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import type { mappingCells } from "./selection";

export interface ImportState {
  ok?: boolean;
  message?: string;
  problems?: ImportProblem[];
  skipped?: ImportProblem[];
  runId?: string;
  imported?: number;
}

export function ImportOutcome({ state }: { state: ImportState }) {
  if (!state.message) return null;
  return (
    <div
      role={state.ok ? "status" : "alert"}
      className={`rounded-md border px-3 py-2 text-sm ${state.ok ? "border-emerald-200 bg-emerald-50 text-emerald-900" : "border-rose-200 bg-rose-50 text-rose-800"}`}
    >
      <p className="font-medium">{state.message}</p>
      {state.ok && state.runId && (
        <p className="mt-1">
          <Link href={`/runs/${state.runId}`} className="underline">
            Open the run
          </Link>{" "}
          ·{" "}
          <a href={`/label?run=${state.runId}`} className="underline">
            Label its faces
          </a>
        </p>
      )}
      {!!state.problems?.length && (
        <ul className="mt-2 max-h-64 list-disc overflow-auto pl-5 text-xs">
          {state.problems.map((p) => (
            <li key={p.name + p.message}>
              <span className="font-mono">{p.name}</span>: {p.message}
            </li>
          ))}
        </ul>
      )}
      {!!state.skipped?.length && <p className="mt-1 text-xs">Left out (not images): {state.skipped.map((s) => `${s.name} (${s.message})`).join(", ")}</p>}
    </div>
  );
}

export function MappingPreview({
  preview,
  cells,
  suiteNaming,
  statName,
}: {
  preview: NameMapping;
  cells: ReturnType<typeof mappingCells>;
  suiteNaming: string | null;
  statName: Map<string, string>;
}) {
  return (
    <Card
      title="3. Check the mapping"
      description={`Mapped by ${preview.mappedBy}. Nothing is stored until you import; image contents are checked on import.`}
      actions={
        <span className="flex gap-2">
          <Badge tone="success">{preview.targets.size} images</Badge>
          {preview.problems.length > 0 && (
            <Badge tone="danger">
              {preview.problems.length.toLocaleString("en-US")} problem{preview.problems.length === 1 ? "" : "s"}
            </Badge>
          )}
          {preview.skipped.length > 0 && <Badge tone="neutral">{preview.skipped.length} left out</Badge>}
        </span>
      }
    >
      {preview.problems.length > 0 && (
        <Alert className="mb-3">
          Fix these files (or the manifest) first — a batch with a problem stores nothing:
          <ul className="mt-1 max-h-48 list-disc overflow-auto pl-5 text-xs">
            {preview.problems.map((p) => (
              <li key={p.name + p.message}>
                <span className="font-mono">{p.name}</span>: {p.message}
              </li>
            ))}
          </ul>
        </Alert>
      )}
      {cells.length > 0 && suiteNaming && (
        <Table aria-label="Mapping preview">
          <thead>
            <tr>
              <Th>Prompt (folder; checked against the suite when stored)</Th>
              <Th className="text-right">Images</Th>
            </tr>
          </thead>
          <tbody>
            {cells.map(({ target, n }) => (
              <tr key={target.statisticId}>
                <Td>{target.statisticId}</Td>
                <Td className="text-right tabular-nums">{n}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {cells.length > 0 && !suiteNaming && (
        <Table aria-label="Mapping preview">
          <thead>
            <tr>
              <Th>Statistic</Th>
              <Th>Test</Th>
              <Th>Level</Th>
              <Th className="text-right">Images</Th>
            </tr>
          </thead>
          <tbody>
            {cells.map(({ target, n }) => (
              <tr key={`${target.test}|${target.statisticId}|${target.level}`}>
                <Td>{statName.get(target.statisticId)}</Td>
                <Td>{target.test}</Td>
                <Td>{target.level}</Td>
                <Td className="text-right tabular-nums">{n}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {preview.skipped.length > 0 && (
        <p className="mt-2 text-xs text-slate-500">Left out (not images): {preview.skipped.map((s) => `${s.name} (${s.message})`).join(", ")}</p>
      )}
    </Card>
  );
}
