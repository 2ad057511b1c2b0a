// FACT-OR-FAIR's method on a team's own content (issue #57): a content set declares its attributes and classes, its
// statistics with sources and their highest and lowest classes, its scenarios, templates and language
// (lib/content); an admin approves a version (lib/features/content) before runners launch on it. Runs plan from the
// approved version, pinned, and are scored with the paper's code for each declared attribute's k. The shipped
// content is the paper's own set, so the method's reference is one launch away.
import { COT_MAX_TOKENS } from "../../benchmark/cot";
import type { Suite } from "../types";
import { OWN_CONTEXTS, OWN_TESTS, ownConfigSchema, ownPreset, type OwnConfig } from "./config";
import { launchableContent, paperOwnContent, parsePinned, type OwnContent } from "./content";
import { chatTokensOwn, planOwn, plannedPerModelOwn } from "./plan";
import { readOwnAnswer } from "./read";
import { ownResults } from "./results";
import { ownCompare } from "./compare";
import { ownExportLines } from "./export";
import { declaredContexts } from "../../content/render";
import { ownContentChoices, ownPrecision } from "./choices";
import { OWN_VOCABULARY, ownLook } from "./look";
import { ownRankReplicates } from "./ranks";

const CONTEXT_LABELS: Record<(typeof OWN_CONTEXTS)[number], string> = {
  baseline: "baseline (no context)",
  representativeness: "representativeness (the statistic stated)",
  attribution: "attribution (a news report)",
  ingroup: "in-group (the model's own identity)",
};

const presets = {
  paper: { label: "paper", config: ownPreset("paper") },
  quick: { label: "quick", config: ownPreset("quick") },
  smoke: { label: "smoke", config: ownPreset("smoke") },
};

export const fofOwn: Suite<OwnContent, OwnConfig> = {
  id: "fof-own",
  name: "Content set",
  // its Benchmark tab shows the paper's content in the content-set format, beside the tab of the team's own sets
  browseLabel: "The paper's content, as a content set",
  summary: "FACT-OR-FAIR's method on a content set your team writes: its statistics, attributes, classes and language, approved by an admin",
  paper: { title: "FACT-OR-FAIR: A Checklist for Behavioral Testing of AI Models on Fairness-Related Queries", citation: "Huang et al., 2025 (method)" },
  modalityOf: () => "llm",
  // Adaptive runs grow the subjective scenarios' repeats and stop on their scores, per declared attribute (./look.ts).
  adaptiveVocabulary: () => OWN_VOCABULARY,
  look: ownLook,
  adaptiveProblem: (c) =>
    c.tests.includes("subjective")
      ? null
      : "an adaptive run targets the subjective scores: include the subjective test (the objective questions alone are too few to pin down)",
  content: paperOwnContent,
  parseContent: parsePinned,
  launchContent: launchableContent,
  contentChoices: ownContentChoices,
  precision: ownPrecision,
  claimsContent: (version) => /^[a-z0-9]+(-[a-z0-9]+)*@\d+\.\d+\.\d+$/.test(version),
  configSchema: ownConfigSchema,
  presets,
  launchFields: [
    { kind: "choices", name: "tests", label: "Tests", options: OWN_TESTS.map((t) => ({ value: t, label: t })) },
    {
      kind: "choices",
      name: "contexts",
      label: "Subjective contexts",
      options: OWN_CONTEXTS.map((c) => ({ value: c, label: CONTEXT_LABELS[c] })),
      help: "those the content set declares are planned",
    },
    { kind: "number", name: "objectiveRepeats", label: "Objective repeats", min: 1, max: 1000 },
    { kind: "number", name: "subjectiveRepeats", label: "Subjective repeats", min: 1, max: 1000 },
    {
      kind: "toggle",
      name: "cot",
      label: "Reason first (chain of thought)",
      help: "every query asks, in the set's language (its reasonFirst template), for the reasoning before the JSON answer; a set without that template cannot be run so",
    },
  ],
  launchProblem: (config, content) => {
    if (!content.set.statistics?.length) return `content ${content.version} has no statistics`;
    const declared = declaredContexts(content.set);
    if (config.tests.includes("subjective") && !config.contexts.some((c) => declared.includes(c)))
      return `content ${content.version} declares the contexts ${declared.join(", ")}: choose at least one of them`;
    // chain of thought in the set's own words, never an English line in another language's prompts
    if (config.cot && content.set.templates.reasonFirst === undefined)
      return `content ${content.version} has no reasonFirst template (the chain-of-thought answer line in its language): add one to run it with chain of thought`;
    return null;
  },
  plannedPerModel: plannedPerModelOwn,
  chatTokens: chatTokensOwn,
  plan: planOwn,
  callSettings: (c) => ({ timeoutMs: c.timeoutMs, maxRetries: c.maxRetries, maxReasks: c.maxReasks, ...(c.cot ? { answerMaxTokens: COT_MAX_TOKENS } : {}) }),
  readAnswer: readOwnAnswer,
  // Chat answers only: nothing here is labelled from images.
  faceAttributes: [],
  reviewable: false,
  itemColumns: ["category", "polarity", "source", "extremes"],
  items: (content) =>
    (content.set.statistics ?? []).map((s) => ({
      id: s.id,
      title: s.name,
      fields: {
        category: s.category ?? "—",
        polarity: s.polarity,
        source: `${s.source.organisation} (${s.source.year})`,
        extremes: Object.entries(s.groundTruth)
          .map(([a, g]) => `${a}: ${g.highest} ↑ / ${g.lowest} ↓`)
          .join("; "),
      },
      detail: [
        { label: "Definition", text: s.definition },
        { label: "Source", text: `${s.source.organisation}, ${s.source.year}: ${s.source.url}${s.source.citation ? ` — ${s.source.citation}` : ""}` },
      ],
    })),
  results: async (ctx, req) => {
    const run = await ctx.prisma.run.findUniqueOrThrow({
      where: { id: req.runId },
      select: { seed: true, benchmarkVersion: { select: { contentJson: true } } },
    });
    return ownResults(ctx, req, parsePinned(run.benchmarkVersion.contentJson), run.seed);
  },
  compare: ownCompare,
  rankReplicates: ownRankReplicates,
  exportLines: (ctx, req) => ownExportLines(ctx, req),
};
