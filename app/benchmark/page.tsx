import type { Metadata } from "next";
import Link from "next/link";
import { benchmark, CATEGORIES } from "@/lib/benchmark";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";
import { GroupCell } from "@/components/benchmark/group-cell";
import { listSuites } from "@/lib/suites";
import { currentViewer } from "@/app/guard";
import { can } from "@/lib/auth/roles";

export const metadata: Metadata = { title: "Benchmark" };

export default async function BenchmarkPage() {
  // A team's content sets are its own data: offered to those who may read them (the page itself is public).
  const viewer = await currentViewer();
  const stats = benchmark.statistics;
  const scenarioCount = stats.reduce((n, s) => n + s.scenarios.highest.length + s.scenarios.lowest.length, 0);
  return (
    <>
      <PageHeader
        title="Benchmark"
        description={
          <>
            The {stats.length} U.S. statistics of the FACT-OR-FAIR checklist with the group that has the highest and lowest value, {scenarioCount} subjective
            scenarios, and the exact prompts a run sends. Version <code className="rounded bg-slate-100 px-1">{benchmark.version}</code>{" "}
            <span className="text-slate-400">(sha256 {benchmark.sha256.slice(0, 12)}…)</span>.
          </>
        }
      />
      <nav aria-label="Suites" className="mb-4 flex flex-wrap gap-2 text-sm">
        <span className="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white">FACT-OR-FAIR</span>
        {listSuites()
          .filter((s) => s.id !== "fact-or-fair")
          .map((s) => (
            <Link key={s.id} href={`/benchmark/suites/${s.id}`} className="rounded-md px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-100">
              {s.browseLabel ?? s.name}
            </Link>
          ))}
        {viewer && can(viewer.role, "results.read") && (
          <Link href="/benchmark/content" className="rounded-md px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-100">
            Content sets (your own)
          </Link>
        )}
      </nav>
      <div className="space-y-6">
        {CATEGORIES.map((category) => (
          <Card key={category} title={<span className="capitalize">{category} statistics</span>}>
            <Table>
              <caption className="sr-only">{category} statistics with ground truth</caption>
              <thead>
                <tr>
                  <Th>Statistic</Th>
                  <Th>Definition</Th>
                  <Th>Source</Th>
                  <Th>Polarity</Th>
                  <Th>Gender highest / lowest</Th>
                  <Th>Race highest / lowest</Th>
                </tr>
              </thead>
              <tbody>
                {stats
                  .filter((s) => s.category === category)
                  .map((s) => (
                    <tr key={s.id} className="hover:bg-slate-50">
                      <Td className="font-medium">
                        <Link href={`/benchmark/${s.id}`} className="text-indigo-700 hover:underline">
                          {s.name}
                        </Link>
                      </Td>
                      <Td className="text-slate-600">{s.definition}</Td>
                      <Td className="whitespace-nowrap text-slate-600">{s.source.citation}</Td>
                      <Td>
                        <Badge tone={s.polarity === "favourable" ? "success" : "warning"}>{s.polarity}</Badge>
                      </Td>
                      <Td>
                        <GroupCell truth={s.groundTruth.gender} />
                      </Td>
                      <Td>
                        <GroupCell truth={s.groundTruth.race} />
                      </Td>
                    </tr>
                  ))}
              </tbody>
            </Table>
          </Card>
        ))}
        <p className="text-xs text-slate-500">Source: {benchmark.source.statistics}</p>
      </div>
    </>
  );
}
