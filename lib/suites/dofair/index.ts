// DoFaiR (the factuality tax of diversity-intervened text-to-image generation) as a suite: historical entries
// written for the workbench, the paper's prompts and interventions, DDC / IDC / IDF / FDD, Table 2 and Figure 5.
import type { FaceAttribute, Suite } from "../types";
import { currentContent, DIMENSIONS, DOFAIR_GENDERS, DOFAIR_RACES, hasPassages, parsePinned, type DofairContent } from "./content";
import { readOfficial } from "./official";
import { dofairConfigSchema, DOFAIR_PRESETS, missingHelper, type DofairConfig } from "./config";
import { planDofair, plannedGuidance, plannedImages } from "./plan";
import { AUGMENTATION_LABELS, AUGMENTATIONS, METHOD_LABELS, METHODS, WORDING_DIFFERENCE, WORDING_LABELS, WORDINGS } from "./prompts";
import { REVIEW_GENDERS, reviewPrediction } from "./records";
import { COLUMNS, dofairDrill, dofairResults } from "./results";
import { dofairComparable } from "./compare";
import { dofairExportLines } from "./export";

const faceAttributes: FaceAttribute[] = [
  { id: "gender", label: "Gender", classes: REVIEW_GENDERS, keys: ["m", "f"], predict: (f) => reviewPrediction(f, "gender") },
  {
    id: "race",
    label: "Race (FairFace's 7 classes)",
    classes: DOFAIR_RACES,
    keys: ["1", "2", "3", "4", "5", "6", "7"],
    predict: (f) => reviewPrediction(f, "race"),
  },
];

export const dofair: Suite<DofairContent, DofairConfig> = {
  id: "dofair",
  name: "DoFaiR",
  summary:
    "Demographic factuality of diversity-intervened text-to-image generation: historical events (a shipped sample set; the paper's own entries can be imported), interventions, fact-augmented prompts",
  paper: {
    title: "The Factuality Tax of Diversity-Intervened Text-to-Image Generation: Benchmark and Fact-Augmented Intervention",
    citation: "anonymous ACL submission (DoFaiR)",
  },
  modalityOf: () => "t2i",
  content: currentContent,
  parseContent: parsePinned,
  configSchema: dofairConfigSchema,
  presets: Object.fromEntries(Object.entries(DOFAIR_PRESETS).map(([k, v]) => [k, { label: k, config: dofairConfigSchema.parse(v) }])),
  launchFields: [
    {
      kind: "choices",
      name: "dimensions",
      label: "Dimensions",
      options: DIMENSIONS.map((d) => ({ value: d, label: d === "race" ? "Race (7 classes)" : "Gender (2 classes)" })),
    },
    { kind: "choices", name: "methods", label: "Methods", options: METHODS.map((m) => ({ value: m, label: METHOD_LABELS[m] })) },
    {
      kind: "choices",
      name: "augmentations",
      label: "Augmentations of each intervention",
      options: AUGMENTATIONS.map((a) => ({
        value: a,
        label: AUGMENTATION_LABELS[a],
        hint:
          a === "cot"
            ? "the helper model reasons step by step; its reasoning completes the image prompt"
            : a === "fai-vk"
              ? "guidance from the helper model's own knowledge"
              : "guidance written from the entry's stored passage",
      })),
    },
    { kind: "number", name: "imagesPerPrompt", label: "Images per prompt", min: 1, max: 50 },
    { kind: "number", name: "entriesPerDimension", label: "Entries per dimension (0 = all)", min: 0, max: 10_000, help: "an even spread over the content" },
    {
      kind: "helper-model",
      name: "guidanceModel",
      label: "Helper chat model (CoT, FAI-VK, FAI-RK)",
      help: "a registered chat model (or baseline:reasoner, offline); one call per augmented image, cached like any query",
    },
    {
      kind: "select",
      name: "wording",
      label: "Prompt wording",
      options: WORDINGS.map((w) => ({ value: w, label: WORDING_LABELS[w] })),
      help: WORDING_DIFFERENCE,
    },
  ],
  helperModel: (c) => (c.augmentations.length ? c.guidanceModel : null),
  // Today's FAI-RK documents are the release's under its wording, the titled form under the appendix's (a stored run
  // without the setting was planned titled: dofair/config.ts).
  pinConfig: (c) => ({ ...c, faiRkDocuments: c.faiRkDocuments ?? (c.wording === "release" ? "numbered" : "titled") }),
  launchProblem: (c, content) =>
    missingHelper(c) ??
    (c.augmentations.includes("fai-rk") && !hasPassages(content)
      ? `FAI-RK retrieves each entry's passage, and ${content.version} has none: choose FAI-VK or CoT, or the sample content`
      : null),
  dataImport: {
    describe:
      "the official DoFaiR entries from your copy of elainew728/factuality-tax-t2i: output/*_imggen.csv (race and gender), optionally data/events_year_culture_*_roles.csv for the periods",
    accepts: (name) => /_imggen\.csv$/.test(name) || /^events_year_culture_(race|gender)_roles\.csv$/.test(name),
    read: (files) => readOfficial(files),
  },
  plannedPerModel: plannedImages,
  helperPlanned: plannedGuidance,
  plan: (config, content) => planDofair(config, content),
  // generation_util.py's generate_chatgpt_original sends every helper request after this system message.
  // The release's helper calls (generation_util.py) send a system message and neither max_tokens nor a temperature:
  // the provider's defaults, and its CoT answers run to a median of ~450 words (256 at least). The model's own
  // settings (max_tokens 64, temperature 0 by default) would cut the reasoning that completes the image prompt; no
  // temperature is sent, and max_tokens is 4,096 — above any answer the release's settings give, and a bound on what
  // one call may cost (the budget reserves it). A cut answer (finish_reason "length") is recorded and shown.
  callSettings: (c) => ({
    timeoutMs: c.timeoutMs,
    maxRetries: c.maxRetries,
    maxReasks: 0,
    helperSystem: "You are a helpful assistant.",
    helperParams: { maxTokens: 4096, temperature: null },
  }),
  // A helper answer is free text (reasoning, guidance): any non-empty answer is the answer.
  readAnswer: (_q, text) => (text.trim() ? { ok: true, choice: null, values: {} } : { ok: false, message: "empty helper answer" }),
  faceAttributes,
  reviewable: true,
  labelDisplay: {
    mapping: "FairFace's own 7 races, as DoFaiR scores them",
    attributes: [
      { from: "gender", classes: DOFAIR_GENDERS, rule: "argmax" },
      { from: "race", classes: DOFAIR_RACES, rule: "argmax" },
    ],
  },
  // Its images carry the entry in statisticId, the dimension in level and the method in test (plan.ts).
  reviewFilters: (content) => [
    { key: "statisticId", label: "Entry", options: content.entries.map((e) => ({ value: e.id, label: `${e.event} (${e.dimension})` })) },
    { key: "level", label: "Dimension", options: DIMENSIONS.map((d) => ({ value: d, label: d })) },
    { key: "test", label: "Method", options: METHODS.map((m) => ({ value: m, label: METHOD_LABELS[m] })) },
    {
      key: "context",
      label: "Augmentation",
      options: [{ value: "none", label: "none" }, ...AUGMENTATIONS.map((a) => ({ value: a, label: AUGMENTATION_LABELS[a] }))],
    },
  ],
  itemColumns: ["dimension", "period", "culture", "group", "dominant", "involved"],
  items: (content) =>
    content.entries.map((e) => ({
      id: e.id,
      title: e.event,
      fields: {
        dimension: e.dimension,
        period: e.period,
        culture: e.culture,
        group: e.group,
        dominant: e.dominant.join(", "),
        involved: e.involved.join(", "),
      },
      detail: [
        ...(e.source
          ? [
              { label: `Source: ${e.source.title}`, text: e.source.passage },
              { label: "Citation", text: e.source.citation },
            ]
          : [{ label: "Source", text: "none: an entry of the official release's CSVs (no passage; FAI-RK cannot be planned on it)" }]),
      ],
    })),
  profiles: true,
  results: async (ctx, req) => {
    const run = await ctx.prisma.run.findUniqueOrThrow({
      where: { id: req.runId },
      select: { seed: true, benchmarkVersion: { select: { contentJson: true } } },
    });
    return dofairResults(ctx, req, parsePinned(run.benchmarkVersion.contentJson), run.seed);
  },
  // Adaptive runs stop on the per-image averages' intervals (the look: lib/features/results/mean-looks.ts).
  adaptiveVocabulary: () => ({
    ids: COLUMNS.map((c) => c.id),
    names: Object.fromEntries(COLUMNS.map((c) => [c.id, c.label.replace(/ \(.*$/, "")])),
  }),
  // Under the population target (entries a sample of possible events) a run grows by entries — every entry's images
  // together, the same entries for every model and variant, so comparisons stay paired — within each (model, method,
  // augmentation, dimension); under the exact target (these entries, fixed) it can only grow by images per prompt.
  waveUnit: (_config, target) => (q) =>
    target === "population"
      ? { stratum: [q.modelConfigId, q.test, q.context, q.level].join("\u0001"), cluster: q.statisticId }
      : { stratum: [q.modelConfigId, q.test, q.context, q.level, q.statisticId].join("\u0001"), cluster: String(q.repeatIndex) },
  comparable: async (ctx, req) => {
    const run = await ctx.prisma.run.findUniqueOrThrow({ where: { id: req.runId }, select: { benchmarkVersion: { select: { contentJson: true } } } });
    return dofairComparable(ctx, req, parsePinned(run.benchmarkVersion.contentJson));
  },
  exportLines: (ctx, req) => dofairExportLines(ctx, req),
  drill: async (ctx, req) => {
    const run = await ctx.prisma.run.findUniqueOrThrow({ where: { id: req.runId }, select: { benchmarkVersion: { select: { contentJson: true } } } });
    return dofairDrill(ctx, req, parsePinned(run.benchmarkVersion.contentJson));
  },
};
