// FACT-OR-FAIR (Huang et al., 2025) as a suite: 19 U.S. statistics, objective and subjective queries, T2I
// portraits. Its content, planner, parser and metrics are the modules it was built with (lib/benchmark,
// lib/metrics, lib/published, lib/results); this file declares them to the engine. It keeps its own run pages
// (breakdown, answers, report, leaderboard), which read the same modules.
import { z } from "zod";
import { benchmark, parseAnswer, type Benchmark, type ObjectiveOption, type Person } from "../../benchmark";
import { facePrediction } from "../../faces/labels";
import { CONTEXT_LABELS, CONTEXTS, GENDERS, RACES, TESTS } from "../../benchmark/labels";
import { planQueries } from "./plan";
import { presetConfig, runConfigSchema, t2iPresetConfig, t2iRunConfigSchema, type RunConfig, type T2iRunConfig } from "./config";
import { chatTokensFof, plannedPerModelFof } from "./size";
import type { Suite } from "../types";
import { FOF_VOCABULARY } from "../../metrics/sequential";
import { COT_MAX_TOKENS } from "../../benchmark/cot";

type FofConfig = RunConfig | T2iRunConfig;
const isT2i = (c: FofConfig): c is T2iRunConfig => "modality" in c && c.modality === "t2i";

function parsePinned(json: string): Benchmark {
  const bm = JSON.parse(json) as Benchmark;
  if (!bm || !Array.isArray(bm.statistics) || typeof bm.sha256 !== "string") throw new Error("unreadable FACT-OR-FAIR content");
  return bm;
}

const pick = (p: ReturnType<typeof facePrediction>, a: "gender" | "race") =>
  p ? (a === "gender" ? { value: p.gender, p: p.genderConfidence } : { value: p.race, p: p.raceConfidence }) : null;

export const factOrFair: Suite<Benchmark, FofConfig> = {
  id: "fact-or-fair",
  name: "FACT-OR-FAIR",
  summary: "19 U.S. statistics: factuality (objective queries) against fairness (subjective scenarios), LLMs and text-to-image",
  paper: { title: "FACT-OR-FAIR: A Checklist for Behavioral Testing of AI Models on Fairness-Related Queries", citation: "Huang et al., 2025" },
  modalityOf: (c) => (isT2i(c) ? "t2i" : "llm"),
  adaptiveVocabulary: () => FOF_VOCABULARY,
  // Chat runs target the subjective scores (the objective questions are a handful per statistic); text-to-image runs
  // target every test, each prompt's images being many, and wait for their labels between looks.
  adaptiveProblem: (c) =>
    !isT2i(c) && !c.tests.includes("subjective")
      ? "an adaptive run targets the subjective scores: include the subjective test (the objective questions alone are too few to pin down)"
      : null,
  content: () => benchmark,
  parseContent: parsePinned,
  configSchema: z.union([t2iRunConfigSchema, runConfigSchema]) as z.ZodType<FofConfig>,
  presets: {
    paper: { label: "paper (LLM)", config: presetConfig("paper") },
    quick: { label: "quick (LLM)", config: presetConfig("quick") },
    smoke: { label: "smoke (LLM)", config: presetConfig("smoke") },
    "t2i-paper": { label: "paper (T2I)", config: t2iPresetConfig("paper") },
    "t2i-quick": { label: "quick (T2I)", config: t2iPresetConfig("quick") },
    "t2i-smoke": { label: "smoke (T2I)", config: t2iPresetConfig("smoke") },
  },
  launchFields: [],
  // Two shapes, one generic form each: chat models answer queries; image models draw portraits.
  launchVariants: [
    {
      id: "llm",
      label: "LLM run",
      button: "run",
      fields: [
        { kind: "choices", name: "tests", label: "Tests", options: TESTS.map((t) => ({ value: t, label: t })) },
        {
          kind: "choices",
          name: "contexts",
          label: "Subjective contexts",
          options: CONTEXTS.map((c) => ({ value: c, label: CONTEXT_LABELS[c] })),
          help: "the subjective test needs at least one",
        },
        { kind: "number", name: "objectiveRepeats", label: "Objective repeats", min: 1, max: 1000 },
        { kind: "number", name: "subjectiveRepeats", label: "Subjective repeats", min: 1, max: 1000 },
        {
          kind: "toggle",
          name: "cot",
          label: "Reason first (chain of thought)",
          help: "every query asks the model to reason step by step before its JSON answer; the reasoning is kept as the answer's explanation (priced at ~450 output tokens an answer)",
        },
      ],
      presets: {
        paper: { label: "paper", config: presetConfig("paper") },
        quick: { label: "quick", config: presetConfig("quick") },
        smoke: { label: "smoke", config: presetConfig("smoke") },
      },
      defaultPreset: "quick",
    },
    {
      id: "t2i",
      label: "Text-to-image run",
      button: "T2I run",
      fields: [
        { kind: "choices", name: "tests", label: "Tests", options: TESTS.map((t) => ({ value: t, label: t })) },
        { kind: "number", name: "imagesPerPrompt", label: "Images per prompt", min: 1, max: 200 },
      ],
      presets: {
        paper: { label: "paper", config: t2iPresetConfig("paper") },
        quick: { label: "quick", config: t2iPresetConfig("quick") },
        smoke: { label: "smoke", config: t2iPresetConfig("smoke") },
      },
      defaultPreset: "quick",
      fixed: { modality: "t2i" },
    },
  ],
  plannedPerModel: (config, content) => plannedPerModelFof(config, content),
  chatTokens: (config, content) => chatTokensFof(config, content),
  *plan(config, content, seed) {
    const modality = isT2i(config) ? "t2i" : "llm";
    for (const q of planQueries(config, seed, content)) yield { role: "subject", modality, ...q };
  },
  callSettings: (c) => ({
    timeoutMs: c.timeoutMs,
    maxRetries: c.maxRetries,
    maxReasks: isT2i(c) ? 0 : c.maxReasks,
    ...(!isT2i(c) && c.cot ? { answerMaxTokens: COT_MAX_TOKENS } : {}),
  }),
  readAnswer(q, text) {
    const options = JSON.parse(q.optionsJson) as ObjectiveOption[] | Person[];
    const parsed = parseAnswer(
      text,
      options.map((o) => o.letter),
    );
    if (!parsed.ok) return { ok: false, message: parsed.message };
    const chosen = options.find((o) => o.letter === parsed.letter)!;
    if (q.test === "objective") {
      const v = (chosen as ObjectiveOption).value;
      return { ok: true, choice: parsed.letter, values: { [q.attribute === "gender" ? "gender" : "race"]: v } };
    }
    return { ok: true, choice: parsed.letter, values: { gender: (chosen as Person).gender, race: (chosen as Person).race } };
  },
  faceAttributes: [
    { id: "gender", label: "Gender", classes: GENDERS, keys: ["m", "f"], predict: (f) => pick(facePrediction(f), "gender") },
    {
      id: "race",
      label: "Race (FairFace 7 → 4, the paper's mapping)",
      classes: RACES,
      keys: ["1", "2", "3", "4"],
      predict: (f) => pick(facePrediction(f), "race"),
    },
  ],
  reviewable: false,
  // The paper's pipeline: the most probable of White, Black, Latino_Hispanic, East and Southeast Asian (Indian and
  // Middle Eastern not counted), as White / Black / Hispanic / Asian (lib/faces/labels.ts mapRace, "paper").
  labelDisplay: {
    mapping: "the paper's 4 races (argmax, Indian and Middle Eastern not counted)",
    attributes: [
      { from: "gender", classes: GENDERS, rule: "argmax" },
      { from: "race", classes: ["White", "Black", "Hispanic", "Asian"], rule: "argmax", map: [0, 1, 2, 3, 3, -1, -1] },
    ],
  },
  reviewFilters: (bm) => [
    { key: "statisticId", label: "Statistic", options: bm.statistics.map((s) => ({ value: s.id, label: s.name })) },
    { key: "level", label: "Level", options: ["highest", "lowest"].map((v) => ({ value: v, label: v })) },
    { key: "test", label: "Test", options: ["objective", "subjective"].map((v) => ({ value: v, label: v })) },
  ],
  itemColumns: ["category", "polarity", "gender", "race"],
  items: (content) =>
    content.statistics.map((s) => ({
      id: s.id,
      title: s.name,
      fields: {
        category: s.category,
        polarity: s.polarity,
        gender: s.groundTruth.gender ? `${s.groundTruth.gender.highest} ↑ / ${s.groundTruth.gender.lowest} ↓` : "—",
        race: s.groundTruth.race ? `${s.groundTruth.race.highest} ↑ / ${s.groundTruth.race.lowest} ↓` : "—",
      },
      detail: [{ label: "Definition", text: s.definition }],
    })),
  customRunPages: true,
  runPages: [{ path: "breakdown", label: "Breakdown" }],
};
