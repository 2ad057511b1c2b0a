import type { Metadata } from "next";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";
import { ButtonLink } from "@/components/ui/button";
import Link from "next/link";
import { pageGuard } from "@/app/guard";
import { can } from "@/lib/auth/roles";
import { DEFAULT_SUITE_ID, findSuite } from "@/lib/suites";
import { outcomeCounts } from "@/lib/features/runs/outcomes";
import { plannedAtLaunch } from "@/lib/features/ledger/design";
import { outcomeLabel, outcomeTone } from "@/lib/core/run-status";
import { listRuns } from "@/lib/features/runs/lookups";
export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage() {
  const viewer = await pageGuard("results.read", "/runs");
  await connection();
  const runs = await listRuns(db());
  // Failed items per run: a run that "completed" with failures says so here too.
  const outcomes = await outcomeCounts(
    db(),
    runs.map((r) => r.id),
  );
  // what each run's signed design planned: a run cancelled while planning, or stopped early, kept fewer rows
  const launched = await plannedAtLaunch(
    db(),
    runs.map((r) => r.id),
  );
  return (
    <>
      <PageHeader
        title="Runs"
        description="Every run of every suite, newest first. Runs keep going while the server runs, and resume after a restart."
        actions={
          <div className="flex gap-2">
            {can(viewer.role, "images.import") && <ButtonLink href="/runs/import">Import images</ButtonLink>}
            {can(viewer.role, "runs.manage") && (
              <ButtonLink href="/runs/new" variant="primary">
                Launch run
              </ButtonLink>
            )}
          </div>
        }
      />
      <Card>
        {runs.length === 0 ? (
          <EmptyState title="No runs yet">
            {can(viewer.role, "runs.manage") ? (
              <>
                <Link className="text-indigo-700 underline" href="/runs/new">
                  Launch one
                </Link>{" "}
                — the built-in baselines need no API key.
              </>
            ) : (
              "Runs appear here once someone who may launch runs starts one."
            )}
          </EmptyState>
        ) : (
          <Table>
            <thead>
              <tr>
                <Th>Name</Th>
                <Th>Suite</Th>
                <Th>Kind</Th>
                <Th>Models</Th>
                <Th>Status</Th>
                <Th className="text-right">Queries · images (of planned)</Th>
                <Th>Created</Th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.id}>
                  <Td className="font-medium">
                    <Link href={`/runs/${r.id}`} className="text-indigo-700 hover:underline">
                      {r.name}
                    </Link>
                  </Td>
                  <Td className="text-xs" title={r.suiteVersion ?? undefined}>
                    {findSuite(r.suiteId ?? DEFAULT_SUITE_ID)?.name ?? r.suiteId}
                  </Td>
                  <Td className="text-xs">{r.modality === "t2i" ? (r.preset === "import" ? "T2I · imported" : "T2I") : "LLM"}</Td>
                  <Td>{r.models.map((m) => m.modelConfig.label).join(", ")}</Td>
                  <Td>
                    <Badge tone={outcomeTone(r.status, outcomes.get(r.id)?.failed ?? 0)}>{outcomeLabel(r.status, outcomes.get(r.id)?.failed ?? 0)}</Badge>
                  </Td>
                  <Td className="text-right tabular-nums">
                    {/* A generated run: images made of those planned (a failed run shows what it was meant to make). */}
                    {r.modality === "t2i" && r.preset !== "import" ? (
                      <span title="images stored / planned">
                        {r._count.images.toLocaleString("en-US")} / {r.plannedCount.toLocaleString("en-US")}
                      </span>
                    ) : r.modality === "t2i" ? (
                      r._count.images.toLocaleString("en-US")
                    ) : (
                      <span title="items ended / planned">
                        {(() => {
                          const c = outcomes.get(r.id);
                          const done = c ? c.answered + c.refused + c.failed : 0;
                          const atLaunch = launched.get(r.id);
                          return `${done.toLocaleString("en-US")} / ${r.plannedCount.toLocaleString("en-US")}${
                            atLaunch !== undefined && atLaunch > r.plannedCount ? ` (of ${atLaunch.toLocaleString("en-US")} planned at launch)` : ""
                          }`;
                        })()}
                      </span>
                    )}
                  </Td>
                  <Td>
                    <time dateTime={r.createdAt.toISOString()}>{r.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC</time>
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
