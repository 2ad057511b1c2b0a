import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { pageGuard } from "@/app/guard";
import { can } from "@/lib/auth/roles";
import { listContentSets } from "@/lib/features/content/content-sets";
import { PageHeader } from "@/components/ui/page-header";
import { ButtonLink } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, Td, Th } from "@/components/ui/table";
import { ContentStatusBadge } from "@/components/content/status-badge";

export const metadata: Metadata = { title: "Content sets" };

/** A team's own FACT-OR-FAIR content: every stored version, its state, who wrote and approved it. */
export default async function ContentSetsPage() {
  const viewer = await pageGuard("results.read", "/benchmark/content");
  await connection();
  const versions = await listContentSets(db());
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-500">
        <Link href="/benchmark" className="hover:underline">
          Benchmark
        </Link>
      </nav>
      <PageHeader
        title="Content sets"
        description="FACT-OR-FAIR's method on your own population: statistics with sources, attributes and classes, scenarios and templates in your language. A version never changes once stored; an admin approves it before runs launch on it."
        actions={
          can(viewer.role, "content.author") ? (
            <ButtonLink href="/benchmark/content/new" variant="primary">
              New content
            </ButtonLink>
          ) : null
        }
      />
      <Card>
        {versions.length === 0 ? (
          <EmptyState title="No content sets yet">
            Write one as files (docs/user-guide.md, “Your own benchmark”) and upload it under New content, or import it with <code>fof content import</code>.
          </EmptyState>
        ) : (
          <Table>
            <caption className="sr-only">Content-set versions</caption>
            <thead>
              <tr>
                <Th>Version</Th>
                <Th>Title</Th>
                <Th>Language</Th>
                <Th>State</Th>
                <Th>Written by</Th>
                <Th>Approved</Th>
              </tr>
            </thead>
            <tbody>
              {versions.map((v) => (
                <tr key={v.sha256} className="hover:bg-slate-50">
                  <Td className="font-medium">
                    <Link href={`/benchmark/content/${encodeURIComponent(`${v.setId}@${v.version}`)}`} className="text-indigo-700 hover:underline">
                      {v.setId}@{v.version}
                    </Link>
                  </Td>
                  <Td>{v.title}</Td>
                  <Td>{v.language}</Td>
                  <Td>
                    <ContentStatusBadge status={v.status} />
                  </Td>
                  <Td className="text-slate-600">
                    {v.createdBy} · {v.createdAt.slice(0, 10)}
                  </Td>
                  <Td className="text-slate-600">{v.approvedBy ? `${v.approvedBy} · ${v.approvedAt?.slice(0, 10)}` : "—"}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
    </>
  );
}
