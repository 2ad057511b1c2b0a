// FAIntbench (Luo et al.) as a suite: the release's 2,654 prompts with their ground truth, implicit and explicit
// bias scores and the manifestation factor η over gender, race and age, Table 2 with the paper's seven models.
import type { FaceAttribute, Suite } from "../types";
import { ACQUIRED, ACQUIRED_LABELS, ATTRIBUTES, ATTRIBUTE_LABELS, CLASSES, VISIBILITY } from "./classes";
import { currentContent, parsePinned, type FaintContent } from "./content";
import { faintConfigSchema, FAINT_PRESETS, type FaintConfig } from "./config";
import { planFaint, plannedImages } from "./plan";
import { AGE_9_TO_3, predict, RACE_7_TO_5 } from "./labels";
import { faintResults } from "./results";
import { FAINT_VOCABULARY, faintLook } from "./look";
import { faintCompare } from "./compare-runs";
import { faintRankArms } from "./ranks";
import { faintDrill } from "./drill";
import { faintExportLines } from "./export";
import { importConfig, importTarget, IMPORT_NAMING } from "./import";
import { CLIP_GROUPS } from "./clip-instrument";

const KEYS = { gender: ["m", "f"], race: ["1", "2", "3", "4", "5"], age: ["7", "8", "9"] } as const;
const faceAttributes: FaceAttribute[] = ATTRIBUTES.map((a) => ({
  id: a,
  label: a === "race" ? "Race (5 groups)" : a === "age" ? "Age (3 groups)" : ATTRIBUTE_LABELS[a],
  classes: CLASSES[a],
  keys: KEYS[a],
  predict: (f) => predict(f, a),
}));

const pct = (v: number) => `${Math.round(v * 1000) / 10}%`;
const shares = (v: readonly number[], classes: readonly string[]) => classes.map((c, i) => `${c} ${pct(v[i])}`).join(", ");

export const faintbench: Suite<FaintContent, FaintConfig> = {
  id: "faintbench",
  name: "FAIntbench",
  summary: "Implicit and explicit bias and the manifestation factor η of text-to-image models over gender, race and age",
  paper: { title: "FAIntbench: A Holistic and Precise Benchmark for Bias Evaluation in Text-to-Image Models", citation: "Luo et al." },
  modalityOf: () => "t2i",
  content: currentContent,
  parseContent: parsePinned,
  configSchema: faintConfigSchema,
  presets: Object.fromEntries(Object.entries(FAINT_PRESETS).map(([k, v]) => [k, { label: k, config: faintConfigSchema.parse(v) }])),
  launchFields: [
    {
      kind: "choices",
      name: "visibility",
      label: "Prompts",
      options: VISIBILITY.map((v) => ({
        value: v,
        label: v === "implicit" ? "Implicit (no protected attribute named)" : "Explicit (a requested gender, race or age)",
      })),
    },
    { kind: "choices", name: "acquired", label: "Acquired attributes", options: ACQUIRED.map((q) => ({ value: q, label: ACQUIRED_LABELS[q] })) },
    { kind: "number", name: "imagesPerPrompt", label: "Images per prompt", min: 1, max: 1000, help: "the paper: 800; its guide: at least 100" },
    {
      kind: "number",
      name: "itemsPerAcquired",
      label: "Items per acquired attribute (0 = all)",
      min: 0,
      max: 1000,
      help: "η pairs first, so a small run still measures η",
    },
    {
      kind: "select",
      name: "instrument",
      label: "Instrument",
      options: [
        { value: "faces", label: "Faces: detector → FairFace per face (every suite's pipeline)" },
        { value: "clip", label: "CLIP ViT-L/14 on the whole image (the paper's; needs the CLIP files)" },
      ],
      help: "Published rows sit beside the CLIP instrument only. CLIP's files are installed by an operator (docs/operations.md).",
    },
  ],
  labelInstrument: (config) => config.instrument,
  clipGroups: CLIP_GROUPS,
  plannedPerModel: plannedImages,
  plan: (config, content) => planFaint(config, content),
  callSettings: (c) => ({ timeoutMs: c.timeoutMs, maxRetries: c.maxRetries, maxReasks: 0 }),
  readAnswer: () => ({ ok: false, message: "FAIntbench plans no chat queries" }),
  faceAttributes,
  reviewable: false,
  labelDisplay: {
    mapping: "FAIntbench's 5 races and 3 age groups (summed FairFace probabilities)",
    attributes: [
      { from: "gender", classes: CLASSES.gender, rule: "sum" },
      { from: "race", classes: CLASSES.race, rule: "sum", map: RACE_7_TO_5 },
      { from: "age", classes: CLASSES.age, rule: "sum", map: AGE_9_TO_3 },
    ],
  },
  // Its images carry visibility in test and the acquired attribute in level (plan.ts); 2,654 prompts are too many
  // for a list, so items are not a filter here.
  reviewFilters: (content) => [
    { key: "test", label: "Visibility", options: VISIBILITY.map((v) => ({ value: v, label: v })) },
    { key: "level", label: "Acquired attribute", options: ACQUIRED.map((q) => ({ value: q, label: ACQUIRED_LABELS[q] })) },
    { key: "attribute", label: "Requested attribute (explicit)", options: ATTRIBUTES.map((a) => ({ value: a, label: ATTRIBUTE_LABELS[a] })) },
    // The requested class lives in the pinned prompt, not a column: each choice is the set of prompts asking for it.
    {
      key: "group",
      label: "Requested class (explicit)",
      options: ATTRIBUTES.flatMap((a) =>
        CLASSES[a].map((c) => ({
          value: `${a}:${c}`,
          label: `${ATTRIBUTE_LABELS[a]}: ${c}`,
          items: content.prompts.filter((p) => p.persons.some((x) => x.requested?.attribute === a && x.requested.value === c)).map((p) => p.id),
        })),
      ).filter((o) => o.items.length > 0),
    },
  ],
  itemColumns: ["visibility", "acquired", "item", "persons", "truth or request"],
  items: (content) =>
    content.prompts.map((p) => ({
      id: p.id,
      title: p.text,
      fields: {
        visibility: p.visibility,
        acquired: ACQUIRED_LABELS[p.acquired],
        item: p.item,
        persons: p.persons.length === 2 ? "two (left, right)" : "one",
        "truth or request": p.persons
          .map((x) =>
            x.requested
              ? `${x.side === "one" ? "" : `${x.side}: `}${x.requested.value}`
              : `${x.side === "one" ? "" : `${x.side}: `}${x.truth!.gender.map(pct).join("/")} m/f`,
          )
          .join("; "),
      },
      detail: [
        { label: "Prompt sent (with the release's style suffix)", text: p.prompt },
        ...p.persons.flatMap((x) =>
          x.truth
            ? ATTRIBUTES.map((a) => ({
                label: `Ground truth${x.side === "one" ? "" : ` (${x.side})`}: ${ATTRIBUTE_LABELS[a]}`,
                text:
                  shares(x.truth![a], CLASSES[a]) +
                  (x.rawTruth?.[a]
                    ? ` — repaired from the release's ${x.rawTruth[a]!.map((v) => v.toFixed(4)).join(", ")} (negative shares → 0, then normalised to sum 1)`
                    : ""),
              }))
            : [{ label: `Requested${x.side === "one" ? "" : ` (${x.side})`}`, text: `${ATTRIBUTE_LABELS[x.requested!.attribute]}: ${x.requested!.value}` }],
        ),
      ],
    })),
  profiles: true,
  // Adaptive runs grow by images per prompt and stop on Table 2's scores (./look.ts).
  adaptiveVocabulary: () => FAINT_VOCABULARY,
  look: faintLook,
  // Paired comparisons of Table 2's scores over the same prompts (./compare.ts): Compare page, `fof compare`, API.
  compare: faintCompare,
  rankArms: faintRankArms,
  results: async (ctx, req) => {
    const run = await ctx.prisma.run.findUniqueOrThrow({
      where: { id: req.runId },
      select: { seed: true, labelInstrument: true, benchmarkVersion: { select: { contentJson: true } } },
    });
    return faintResults(ctx, req, parsePinned(run.benchmarkVersion.contentJson), run.seed, run.labelInstrument === "clip" ? "clip" : "faces");
  },
  drill: async (ctx, req) => {
    const run = await ctx.prisma.run.findUniqueOrThrow({ where: { id: req.runId }, select: { benchmarkVersion: { select: { contentJson: true } } } });
    return faintDrill(ctx, req, parsePinned(run.benchmarkVersion.contentJson));
  },
  exportLines: (ctx, req) => faintExportLines(ctx, req),
  importer: { naming: IMPORT_NAMING, target: importTarget, config: (targets, _content, opts) => importConfig(targets, opts?.instrument) },
};
