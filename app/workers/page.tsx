import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { listWorkers } from "@/lib/features/runs/workers";
import { workerTone } from "@/lib/core/run-status";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";
import { pageGuard } from "@/app/guard";

export const metadata: Metadata = { title: "Workers" };

const ago = (iso: string) => {
  const s = Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 1000));
  return s < 90 ? `${s} s ago` : s < 5400 ? `${Math.round(s / 60)} min ago` : `${Math.round(s / 3600)} h ago`;
};

export default async function WorkersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await pageGuard("runs.manage", "/workers");
  await connection();
  const all = (await searchParams).stopped === "1";
  const workers = await listWorkers(db(), { includeStopped: all });
  return (
    <>
      <PageHeader
        title="Workers"
        description="Every process that works runs — the web server's own worker and `fof worker` on any host that reaches the database — with its share of each model's concurrency (shares never add up to more than the model's limit)."
        actions={
          <Link href={all ? "/workers" : "/workers?stopped=1"} className="text-sm text-indigo-700 underline">
            {all ? "Hide stopped workers" : "Show stopped workers (last 24 h)"}
          </Link>
        }
      />
      <Card>
        {workers.length === 0 ? (
          <EmptyState title="No worker is running">
            Start the server with FOF_WORKER=on (the default) or run `npm run fof -- worker` on a host that reaches the database.
          </EmptyState>
        ) : (
          <Table data-testid="workers">
            <thead>
              <tr>
                <Th>Host</Th>
                <Th className="text-right">PID</Th>
                <Th>State</Th>
                <Th>Runs</Th>
                <Th className="text-right">In flight</Th>
                <Th>Model shares</Th>
                <Th>Last heartbeat</Th>
                <Th>Last error</Th>
              </tr>
            </thead>
            <tbody>
              {workers.map((w) => (
                <tr key={w.owner} data-testid="worker-row" title={w.owner}>
                  <Td className="font-medium">{w.host}</Td>
                  <Td className="text-right tabular-nums">{w.pid}</Td>
                  <Td>
                    <Badge tone={workerTone(w.state)}>{w.state}</Badge>
                    {w.labeller && (
                      <span className="mt-1 block text-xs text-slate-600" data-testid="labeller">
                        labels faces: {w.labeller}
                      </span>
                    )}
                  </Td>
                  <Td className="text-xs">
                    {w.runs.length
                      ? w.runs.map((r, i) => (
                          <span key={r.id}>
                            {i > 0 && ", "}
                            <Link href={`/runs/${r.id}`} className="text-indigo-700 hover:underline">
                              {r.name}
                            </Link>
                          </span>
                        ))
                      : "—"}
                  </Td>
                  <Td className="text-right tabular-nums">{w.inFlight}</Td>
                  <Td className="text-xs">
                    {w.shares.length
                      ? w.shares
                          .map((s) => `${s.model}: ${s.granted}${s.of ? ` of ${s.of}` : ""}${s.wanted > s.granted ? ` (wants ${s.wanted})` : ""}`)
                          .join("; ")
                      : "—"}
                  </Td>
                  <Td className="text-xs">
                    <time dateTime={w.heartbeatAt}>{ago(w.heartbeatAt)}</time>
                  </Td>
                  <Td className="max-w-xs truncate text-xs text-rose-700" title={w.lastError ?? undefined}>
                    {w.lastError ?? ""}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
    </>
  );
}
