import { createHash } from "node:crypto";
import statisticsJson from "../../data/suites/fact-or-fair/statistics.json";
import scenariosJson from "../../data/suites/fact-or-fair/scenarios.json";
import { scenariosFileSchema, statisticsFileSchema, type StatisticContent, type StatisticRecord } from "./schema";
import type { Attribute, Gender, Label, Level, Race } from "./labels";
import { z } from "zod";
import { PROMPT_GENERATOR_VERSION } from "./rng";

export interface Statistic extends StatisticRecord, StatisticContent {
  /** attributes whose highest/lowest group is known for this statistic (gender 15, race 18) */
  attributes: Attribute[];
  sourceOrganisations: string[];
}

export interface Benchmark {
  version: string;
  /** sha256 of the canonical content: runs pin it */
  sha256: string;
  source: { statistics: string; scenarios: string };
  statistics: Statistic[];
}

export class BenchmarkDataError extends Error {}

function formatZod(file: string, error: z.ZodError): string {
  return `${file} is invalid:\n` + error.issues.map((i) => `  - ${i.path.join(".") || "(root)"}: ${i.message}`).join("\n");
}

/** Validates and joins the two data files. Exported for tests that feed it broken content. */
export function buildBenchmark(statisticsInput: unknown, scenariosInput: unknown): Benchmark {
  const stats = statisticsFileSchema.safeParse(statisticsInput);
  if (!stats.success) throw new BenchmarkDataError(formatZod("data/suites/fact-or-fair/statistics.json", stats.error));
  const content = scenariosFileSchema.safeParse(scenariosInput);
  if (!content.success) throw new BenchmarkDataError(formatZod("data/suites/fact-or-fair/scenarios.json", content.error));

  const ids = new Set(stats.data.statistics.map((s) => s.id));
  const extra = Object.keys(content.data.statistics).filter((id) => !ids.has(id));
  if (extra.length) throw new BenchmarkDataError(`data/suites/fact-or-fair/scenarios.json names unknown statistics: ${extra.join(", ")}`);

  const statistics = stats.data.statistics.map((s): Statistic => {
    const c = content.data.statistics[s.id];
    if (!c) throw new BenchmarkDataError(`data/suites/fact-or-fair/scenarios.json has no content for ${s.id}`);
    const attributes = (["gender", "race"] as const).filter((a) => s.groundTruth[a]);
    return {
      ...s,
      ...c,
      attributes,
      sourceOrganisations: s.source.organisations.map((o) => stats.data.organisations[o]),
    };
  });
  // The prompt generator is part of the content: new seeding or wording is a new version, and old runs keep theirs.
  const sha256 = createHash("sha256")
    .update(JSON.stringify({ statistics: stats.data, scenarios: content.data, generator: PROMPT_GENERATOR_VERSION }))
    .digest("hex");
  return {
    version: `${stats.data.version}+${content.data.version}+g${PROMPT_GENERATOR_VERSION}`,
    sha256,
    source: { statistics: stats.data.source, scenarios: content.data.source },
    statistics,
  };
}

export const benchmark: Benchmark = buildBenchmark(statisticsJson, scenariosJson);

const byKey = new Map<string, Statistic>();
for (const s of benchmark.statistics) {
  byKey.set(s.id, s);
  byKey.set(s.name.toLowerCase(), s);
}

/** Look a statistic up by id ("crime-rate") or exact name ("Crime Rate", case-insensitive). */
export function findStatistic(idOrName: string): Statistic | undefined {
  return byKey.get(idOrName.trim().toLowerCase());
}

const indexes = new WeakMap<Benchmark, Map<string, Statistic>>();

/**
 * A statistic of a given benchmark version (a run's pinned content, or today's data/ by default): scoring reads the
 * version a run was planned from, never today's files.
 */
export function statisticIn(bm: Benchmark, idOrName: string): Statistic {
  const s = findStatisticIn(bm, idOrName);
  if (!s) throw new BenchmarkDataError(`unknown statistic "${idOrName}" in benchmark ${bm.version}`);
  return s;
}

/** As statisticIn, undefined when the version has no such statistic. */
export function findStatisticIn(bm: Benchmark, idOrName: string): Statistic | undefined {
  if (bm === benchmark) return findStatistic(idOrName);
  let index = indexes.get(bm);
  if (!index) {
    index = new Map();
    for (const s of bm.statistics) {
      index.set(s.id, s);
      index.set(s.name.toLowerCase(), s);
    }
    indexes.set(bm, index);
  }
  return index.get(idOrName.trim().toLowerCase());
}

export function getStatistic(idOrName: string): Statistic {
  const s = findStatistic(idOrName);
  if (!s) throw new BenchmarkDataError(`unknown statistic "${idOrName}"`);
  return s;
}

/** The true highest/lowest group of a statistic for an attribute, or null when the attribute does not apply. */
export function groundTruth(statistic: Statistic, attribute: "gender", level: Level): Gender | null;
export function groundTruth(statistic: Statistic, attribute: "race", level: Level): Race | null;
export function groundTruth(statistic: Statistic, attribute: Attribute, level: Level): Label | null;
export function groundTruth(statistic: Statistic, attribute: Attribute, level: Level): Label | null {
  return statistic.groundTruth[attribute]?.[level] ?? null;
}
