import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import {
  benchmark,
  buildT2IObjectivePrompt,
  buildT2ISubjectivePrompt,
  CONTEXT_LABELS,
  CONTEXTS,
  findStatistic,
  LEVELS,
  renderLlmQuery,
  type Person,
} from "@/lib/benchmark";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";
import { GroupCell } from "@/components/benchmark/group-cell";
import { PromptBlock } from "@/components/benchmark/prompt-block";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";

export function generateStaticParams() {
  return benchmark.statistics.map((s) => ({ id: s.id }));
}

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const s = findStatistic((await params).id);
  return { title: s ? s.name : "Unknown statistic" };
}

const querySchema = z.object({
  seed: z.coerce.number().int().min(0).max(2_147_483_647).catch(1),
  level: z.enum(LEVELS).catch("highest"),
  scenario: z.coerce.number().int().min(0).max(2).catch(0),
  repeat: z.coerce.number().int().min(0).max(9999).catch(0),
});

export default async function StatisticPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const statistic = findStatistic((await params).id);
  if (!statistic || statistic.id !== (await params).id) notFound();
  const q = querySchema.parse(await searchParams);
  const index = benchmark.statistics.findIndex((s) => s.id === statistic.id);
  const prev = benchmark.statistics[index - 1];
  const next = benchmark.statistics[index + 1];

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-500">
        <Link href="/benchmark" className="hover:underline">
          Benchmark
        </Link>{" "}
        / <span className="capitalize">{statistic.category}</span>
      </nav>
      <PageHeader
        title={statistic.name}
        description={
          <>
            {statistic.definition} Source: {statistic.source.citation} — {statistic.sourceOrganisations.join(", ")}.
          </>
        }
        actions={
          <div className="flex gap-2 text-sm">
            {prev && (
              <Link className="rounded-md px-2 py-1 text-indigo-700 ring-1 ring-slate-300 hover:bg-white" href={`/benchmark/${prev.id}`}>
                ← {prev.name}
              </Link>
            )}
            {next && (
              <Link className="rounded-md px-2 py-1 text-indigo-700 ring-1 ring-slate-300 hover:bg-white" href={`/benchmark/${next.id}`}>
                {next.name} →
              </Link>
            )}
          </div>
        }
      />

      <div className="grid gap-6 lg:grid-cols-3">
        <Card title="Ground truth" className="lg:col-span-1">
          <Table>
            <thead>
              <tr>
                <Th>Attribute</Th>
                <Th>Highest / lowest</Th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <Td>Gender</Td>
                <Td>
                  <GroupCell truth={statistic.groundTruth.gender} />
                </Td>
              </tr>
              <tr>
                <Td>Race</Td>
                <Td>
                  <GroupCell truth={statistic.groundTruth.race} />
                </Td>
              </tr>
            </tbody>
          </Table>
          <p className="mt-3 text-sm">
            Polarity: <Badge tone={statistic.polarity === "favourable" ? "success" : "warning"}>{statistic.polarity}</Badge>{" "}
            <span className="text-slate-500">
              (a high value is {statistic.polarity === "favourable" ? "desirable" : "undesirable"}; used by the in-group/out-group analysis)
            </span>
          </p>
          {statistic.note && <p className="mt-2 text-xs text-amber-800">{statistic.note}</p>}
        </Card>

        <Card title="Subjective scenarios" className="lg:col-span-2" description="Three per level; each asks for one of four people.">
          <div className="grid gap-4 md:grid-cols-2">
            {LEVELS.map((level) => (
              <div key={level}>
                <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{level}</h3>
                <ol className="list-decimal space-y-2 pl-5 text-sm">
                  {statistic.scenarios[level].map((s, i) => (
                    <li key={i}>{s}</li>
                  ))}
                </ol>
                <p className="mt-2 text-xs text-slate-600">
                  <span className="font-semibold">Attribution-error behaviour:</span> “…who {statistic.attribution[level]}.”
                </p>
              </div>
            ))}
          </div>
        </Card>
      </div>

      <Card
        className="mt-6"
        title="Exact prompts a run sends"
        description="Options, names, ages and context identities are drawn from the run's seed, so the same seed always gives the same prompts."
      >
        <form method="get" className="mb-4 flex flex-wrap items-end gap-3 text-sm" aria-label="Prompt preview settings">
          <label className="flex flex-col gap-1">
            <span className="text-xs font-medium text-slate-600">Seed</span>
            <Input name="seed" type="number" min={0} defaultValue={q.seed} className="w-28 rounded-md border border-slate-300 px-2 py-1" />
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-xs font-medium text-slate-600">Level</span>
            <Select name="level" defaultValue={q.level} className="rounded-md border border-slate-300 px-2 py-1">
              {LEVELS.map((l) => (
                <option key={l}>{l}</option>
              ))}
            </Select>
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-xs font-medium text-slate-600">Scenario</span>
            <Select name="scenario" defaultValue={q.scenario} className="rounded-md border border-slate-300 px-2 py-1">
              {[0, 1, 2].map((i) => (
                <option key={i} value={i}>
                  #{i + 1}
                </option>
              ))}
            </Select>
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-xs font-medium text-slate-600">Repeat</span>
            <Input name="repeat" type="number" min={0} defaultValue={q.repeat} className="w-24 rounded-md border border-slate-300 px-2 py-1" />
          </label>
          <Button type="submit" variant="secondary">
            Show prompts
          </Button>
        </form>

        <h3 className="mb-2 mt-2 text-sm font-semibold">LLM objective ({q.level})</h3>
        <div className="grid gap-4 md:grid-cols-2">
          {(["gender", "race"] as const).map((attribute) => {
            const rendered = renderLlmQuery({ test: "objective", statisticId: statistic.id, attribute, level: q.level, repeatIndex: q.repeat }, q.seed);
            const applies = statistic.attributes.includes(attribute);
            return (
              <PromptBlock
                key={attribute}
                label={`Objective · ${attribute}`}
                meta={
                  !applies && (
                    <Badge tone="warning" title="Sent as in the paper, excluded from scores">
                      no ground truth: not scored
                    </Badge>
                  )
                }
              >
                {rendered.prompt}
              </PromptBlock>
            );
          })}
        </div>

        <h3 className="mb-2 mt-6 text-sm font-semibold">
          LLM subjective ({q.level}, scenario #{q.scenario + 1})
        </h3>
        <div className="grid gap-4 md:grid-cols-2">
          {CONTEXTS.map((context) => {
            const rendered = renderLlmQuery(
              { test: "subjective", statisticId: statistic.id, level: q.level, scenarioIndex: q.scenario, context, repeatIndex: q.repeat },
              q.seed,
            );
            const people = rendered.options as Person[];
            return (
              <div key={context}>
                <PromptBlock
                  label={CONTEXT_LABELS[context]}
                  meta={
                    rendered.identity && (
                      <Badge tone="info">
                        drawn identity: {rendered.identity.race} {rendered.identity.gender}
                      </Badge>
                    )
                  }
                >
                  {rendered.prompt}
                </PromptBlock>
                <p className="mt-1 text-xs text-slate-500">Stored options: {people.map((p) => `${p.letter} = ${p.gender} / ${p.race}`).join(" · ")}</p>
              </div>
            );
          })}
        </div>

        <h3 className="mb-2 mt-6 text-sm font-semibold">Text-to-image</h3>
        <div className="grid gap-4 md:grid-cols-2">
          {LEVELS.map((level) => (
            <div key={level} className="space-y-3">
              <PromptBlock label={`T2I objective · ${level}`}>{buildT2IObjectivePrompt(statistic, level)}</PromptBlock>
              <PromptBlock label={`T2I subjective · ${level}`}>{buildT2ISubjectivePrompt(statistic, level)}</PromptBlock>
            </div>
          ))}
        </div>
      </Card>
    </>
  );
}
