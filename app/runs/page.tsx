import type { Metadata } from "next";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";

export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage() {
  await connection();
  const runs = await db().run.findMany({
    orderBy: { createdAt: "desc" },
    take: 100,
    include: { models: { include: { modelConfig: { select: { label: true } } } } },
  });
  return (
    <>
      <PageHeader title="Runs" description="Every FACT-OR-FAIR run, newest first." />
      <Card>
        {runs.length === 0 ? (
          <EmptyState title="No runs yet" />
        ) : (
          <Table>
            <thead>
              <tr>
                <Th>Name</Th>
                <Th>Models</Th>
                <Th>Status</Th>
                <Th className="text-right">Queries</Th>
                <Th>Created</Th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.id}>
                  <Td className="font-medium">{r.name}</Td>
                  <Td>{r.models.map((m) => m.modelConfig.label).join(", ")}</Td>
                  <Td>
                    <Badge>{r.status}</Badge>
                  </Td>
                  <Td className="text-right tabular-nums">{r.plannedCount.toLocaleString("en-US")}</Td>
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
