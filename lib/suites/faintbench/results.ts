// FAIntbench's result views: Table 2 (implicit, explicit, η) with the paper's seven models beside ours (CLIP runs
// only: the paper's instrument), the protected- and acquired-attribute levels of Tables 6–17 and Figures 6/7, 9/10
// and 12. The drill-down from a cell to its prompts, images and faces is ./drill.ts.
import { RELEASE_ETA_READING } from "./eta-release";
import publishedJson from "../../../data/suites/faintbench/published.json";
import type { ResultsRequest, SuiteContext } from "../types";
import type { BarsView, SuiteView, TableView, ViewCell, ViewRow } from "../views";
import { ACQUIRED, ACQUIRED_LABELS, ATTRIBUTES, ATTRIBUTE_LABELS } from "./classes";
import type { FaintContent } from "./content";
import { imageRecords, type ClipProvenance } from "./records";
import { OPENAI_CLIP_VIT_L14_SHA256 } from "./clip-instrument";
import type { LabelInstrument } from "../../faces/provenance";
import { DEFAULT_PROFILE } from "../../metrics/profiles";
import { newTally, tallyImage, type ModelScores, type PromptTally, type Scored } from "./score";
import { targetScores } from "./exact";
import { categoryTables, classTable } from "./explicit-levels";
import { byCodeUnits } from "../../core/order";

type Metric = "implicit" | "explicit" | "eta";
const METRIC_LABELS: Record<Metric, string> = { implicit: "Implicit bias score ↑", explicit: "Explicit bias score ↑", eta: "Manifestation factor η" };

/** Tallies of every model's prompts, in one pass over the run's labelled images (and what read its CLIP images). */
export async function collect(ctx: SuiteContext, runId: string, content: FaintContent, labels: "model" | "reviewed") {
  const prompts = new Map(content.prompts.map((p) => [p.id, p]));
  const byModel = new Map<string, Map<string, PromptTally>>();
  const clipBy = new Map<string, ClipProvenance>();
  for await (const page of imageRecords(ctx.prisma, runId, labels)) {
    for (const r of page) {
      if (r.clip) clipBy.set(`${r.clip.by.sha256}|${r.clip.by.textsSha256}`, r.clip.by);
      const p = prompts.get(r.promptId);
      if (!p) continue;
      let m = byModel.get(r.model);
      if (!m) byModel.set(r.model, (m = new Map()));
      let t = m.get(p.id);
      if (!t) m.set(p.id, (t = newTally()));
      tallyImage(t, p, r.faces, r.clip);
    }
  }
  return { byModel, clipBy: [...clipBy.values()] };
}

/** The caption's sentence on what labelled the images, and how far its numbers may be read beside the paper's. */
function instrumentText(instrument: LabelInstrument, clipBy: readonly ClipProvenance[], labels: "model" | "reviewed"): string {
  if (instrument === "faces")
    return `Instrument: faces — ${labels === "reviewed" ? "human-corrected where reviewed, else the face classifier's" : "the face classifier's"} labels, FairFace mapped to 5 races and 3 age groups. The paper measured with CLIP on whole images, so its rows are not shown beside these numbers: launch with the CLIP instrument to compare.`;
  if (!clipBy.length) return "Instrument: CLIP on whole images (FAIntbench's own), the release's rules; no image read yet.";
  const by = clipBy
    .map((c) => `${c.model} (sha256 ${c.sha256.slice(0, 12)}…; texts ${c.textsSha256.slice(0, 12)}… from weights ${c.weightsSha256.slice(0, 12)}…)`)
    .join(", ");
  const paper = clipBy.every((c) => c.weightsSha256 === OPENAI_CLIP_VIT_L14_SHA256);
  return `Instrument: CLIP on whole images (FAIntbench's own: the release's person check, thresholds and adjustments, soft vectors averaged per prompt), read by ${by}. ${paper ? "Its texts come from OpenAI's ViT-L/14 weights, the paper's model: the paper's rows are the same instrument." : "Its texts do NOT come from OpenAI's ViT-L/14 weights (a stand-in or another CLIP): the paper's rows are shown for their shape, not comparable digit for digit."}`;
}

const cell = (s: Scored, drill?: Record<string, string>): ViewCell => ({
  value: s.value,
  estimate: s.estimate,
  lo: s.lo,
  hi: s.hi,
  n: s.n,
  drill,
  ...(s.flags?.length ? { note: `coverage not promised: ${s.flags.map((f) => FLAG_TEXT[f] ?? f).join("; ")}` } : {}),
});
const FLAG_TEXT: Record<string, string> = {
  "small-cells": "some prompt has fewer than two images to draw from",
  "non-smooth": "η's terms switch sign as a deviation crosses 0, which no bootstrap covers reliably",
};
const published = (value: number | undefined): ViewCell => ({ value: value ?? null });

function table2(scores: Map<string, ModelScores>, caption: string, withPaper: boolean): TableView {
  const rows: ViewRow[] = [...scores].map(([model, s]) => ({
    labels: [model],
    source: "run",
    cells: {
      implicit: cell(s.implicit.all, { model, visibility: "implicit" }),
      explicit: cell(s.explicit.all, { model, visibility: "explicit" }),
      eta: cell(s.eta.all, { model, visibility: "implicit" }),
    },
  }));
  for (const p of withPaper ? publishedJson.table2 : [])
    rows.push({
      labels: [`${p.model} (paper)`],
      source: "published",
      cells: { implicit: published(p.implicit), explicit: published(p.explicit), eta: published(p.eta) },
    });
  return {
    kind: "table",
    id: "table2",
    title: "Cumulative results (the paper's Table 2)",
    caption,
    labelHeaders: ["Model"],
    columns: [
      { id: "implicit", label: METRIC_LABELS.implicit, better: "up", digits: 3, unit: "" },
      { id: "explicit", label: METRIC_LABELS.explicit, better: "up", digits: 3, unit: "" },
      { id: "eta", label: "η (0.5: balanced; > 0.5 discrimination, < 0.5 ignorance)", better: "half", digits: 3, unit: "" },
    ],
    groups: [{ title: "All prompts", rows }],
  };
}

function protectedTable(scores: Map<string, ModelScores>, withPaper: boolean): TableView {
  const groups: TableView["groups"] = (["implicit", "explicit", "eta"] as const).map((metric) => {
    const rows: ViewRow[] = [...scores].map(([model, s]) => ({
      labels: [model],
      source: "run",
      cells: Object.fromEntries(
        ATTRIBUTES.map((a) => [a, cell(s[metric].byAttribute[a], { model, visibility: metric === "explicit" ? "explicit" : "implicit", attribute: a })]),
      ),
    }));
    for (const m of withPaper ? publishedJson.models : [])
      rows.push({
        labels: [`${m} (paper)`],
        source: "published",
        cells: Object.fromEntries(
          ATTRIBUTES.map((a) => [a, published(publishedJson.byProtected.find((r) => r.model === m && r.metric === metric && r.attribute === a)?.value)]),
        ),
      });
    return { title: METRIC_LABELS[metric], rows };
  });
  return {
    kind: "table",
    id: "protected",
    title: "By protected attribute (the paper's Tables 6, 12 and 17)",
    caption: "Each score restricted to one protected attribute, 0–1. η per attribute is 0.5 plus the signed adjustments of its pairs.",
    labelHeaders: ["Model"],
    // Higher is better for the bias scores; η's groups are read against 0.5 (the table's caption says so).
    columns: ATTRIBUTES.map((a) => ({ id: a, label: ATTRIBUTE_LABELS[a], better: "up" as const, digits: 3, unit: "" as const })),
    groups,
  };
}

function acquiredTable(scores: Map<string, ModelScores>, withPaper: boolean): TableView {
  const groups: TableView["groups"] = (["implicit", "explicit"] as const).map((metric) => {
    const rows: ViewRow[] = [...scores].map(([model, s]) => ({
      labels: [model],
      source: "run",
      cells: Object.fromEntries(ACQUIRED.map((q) => [q, cell(s[metric].byAcquired[q], { model, visibility: metric, acquired: q })])),
    }));
    for (const m of withPaper ? publishedJson.models : []) {
      const pub = publishedJson.byAcquired.filter((r) => r.model === m && r.metric === metric);
      const flag = pub.find((r) => "flag" in r && r.flag) as { flag?: string } | undefined;
      rows.push({
        labels: [`${m} (paper)`],
        source: "published",
        flag: flag?.flag,
        cells: Object.fromEntries(ACQUIRED.map((q) => [q, published(pub.find((r) => r.acquired === q)?.value)])),
      });
    }
    return { title: METRIC_LABELS[metric], rows };
  });
  return {
    kind: "table",
    id: "acquired",
    title: "By acquired attribute (the paper's Tables 7–9 and 13)",
    caption: "Each score restricted to occupation, characteristic or social-relation prompts, 0–1.",
    labelHeaders: ["Model"],
    columns: ACQUIRED.map((q) => ({ id: q, label: ACQUIRED_LABELS[q], better: "up" as const, digits: 3, unit: "" as const })),
    groups,
  };
}

function bars(
  id: string,
  title: string,
  caption: string,
  keys: readonly string[],
  labels: Record<string, string>,
  ours: Array<[string, Record<string, number | null>, number]>,
  paper: Array<[string, Record<string, number | null>]>,
): BarsView {
  return {
    kind: "bars",
    id,
    title,
    caption,
    unit: "",
    series: keys.map((k) => ({ id: k, label: labels[k] })),
    data: [...ours.map(([label, values, n]) => ({ label, values, n })), ...paper.map(([label, values]) => ({ label: `${label} (paper)`, values }))],
  };
}

const pick = <K extends string>(keys: readonly K[], f: (k: K) => number | null) => Object.fromEntries(keys.map((k) => [k, f(k)]));
const paperRows = (metric: string, keys: readonly string[], field: "attribute" | "acquired") =>
  publishedJson.models.map((m): [string, Record<string, number | null>] => [
    m,
    pick(
      keys,
      (k) =>
        ((publishedJson[field === "attribute" ? "byProtected" : "byAcquired"] as Array<Record<string, unknown>>).find(
          (r) => r.model === m && r.metric === metric && r[field] === k,
        )?.value as number | null) ?? null,
    ),
  ]);

export async function faintResults(
  ctx: SuiteContext,
  req: ResultsRequest,
  content: FaintContent,
  seed: number,
  instrument: LabelInstrument = "faces",
): Promise<SuiteView[]> {
  const { byModel, clipBy } = await collect(ctx, req.runId, content, req.labels);
  // Published rows sit beside the paper's own instrument only (CLIP on whole images); a faces run shows none.
  const withPaper = instrument === "clip";
  const scores = new Map(
    [...byModel]
      .sort(([a], [b]) => byCodeUnits(a, b))
      .map(([m, t]) => [m, targetScores(content, t, { resamples: req.resamples, seed, profile: req.profile ?? DEFAULT_PROFILE, target: req.target })] as const),
  );
  const counts = [...scores]
    .map(([m, s]) =>
      instrument === "clip"
        ? `${m}: ${s.images} images, ${s.noFace} dropped by the person check`
        : `${m}: ${s.images} images, ${s.noFace} without a face, ${s.notTwo} relation images without exactly two faces (left out)`,
    )
    .join("; ");
  const caption = `Scores 0–1 (higher is less biased; η: 0.5 balanced, above it discrimination, below it ignorance), with ${req.resamples ? ((req.target ?? "population") === "exact" ? `95 % intervals about this exact benchmark (these prompts fixed; each prompt's images drawn again — as their mean, with the spread its own images show, an image's faces together; bias-corrected basic bootstrap, ${req.resamples} resamples; "est." is the estimate each interval is about)` : `95 % intervals about the population of prompts (prompts, or η pairs, resampled with all their images; bias-corrected basic bootstrap, ${req.resamples} resamples; the implicit score's about its bias-corrected estimate, "est.")`) : "no intervals"}; n = prompts (η: pairs) behind the value. ${instrumentText(instrument, clipBy, req.labels)} ${counts || "No labelled images yet."} η: ${(req.profile ?? DEFAULT_PROFILE) === "release" ? `scored as the released eta.py computes it (the pair-weighted mean over the 36 pairs of 0.5 + Σ ±α, same-direction deviations adding; the release profile), ${RELEASE_ETA_READING}` : "scored as the paper's text defines it (0.5 + Σ over all pairs of ±α, same-direction deviations subtracting, clamped to [0, 1]; the paper-text profile — the paper's η rows come from its released code)"}. Implicit and explicit: ${(req.profile ?? DEFAULT_PROFILE) === "release" ? "weighted as the released implicit.py and explicit.py weigh them (truth/weight.json's prompt weights, counted per matching category key)" : "every prompt weighted 1"}.${withPaper ? " Paper rows: 800 images per prompt." : ""}`;
  const ours = (metric: "implicit" | "explicit", field: "byAttribute" | "byAcquired", keys: readonly string[]) =>
    [...scores].map(([m, s]): [string, Record<string, number | null>, number] => [
      m,
      pick(keys, (k) => (s[metric][field] as Record<string, Scored>)[k].value),
      s[metric].all.n,
    ]);
  const etaOurs = [...scores].map(([m, s]): [string, Record<string, number | null>, number] => [
    m,
    { ...pick(ATTRIBUTES, (a) => s.eta.byAttribute[a].value), sum: s.eta.all.value },
    s.eta.all.n,
  ]);
  const etaPaper = publishedJson.models.map((m): [string, Record<string, number | null>] => [
    m,
    {
      ...pick(ATTRIBUTES, (a) => publishedJson.byProtected.find((r) => r.model === m && r.metric === "eta" && r.attribute === a)?.value ?? null),
      sum: publishedJson.table2.find((r) => r.model === m)?.eta ?? null,
    },
  ]);
  return [
    table2(scores, caption, withPaper),
    protectedTable(scores, withPaper),
    acquiredTable(scores, withPaper),
    classTable(scores),
    ...categoryTables(scores, withPaper, req.profile ?? DEFAULT_PROFILE),
    bars(
      "figure6",
      "Implicit bias by protected attribute (the paper's Figure 6)",
      "Implicit bias score per protected attribute, 0–1.",
      ATTRIBUTES,
      ATTRIBUTE_LABELS,
      ours("implicit", "byAttribute", ATTRIBUTES),
      withPaper ? paperRows("implicit", ATTRIBUTES, "attribute") : [],
    ),
    bars(
      "figure7",
      "Implicit bias by acquired attribute (the paper's Figure 7)",
      "Implicit bias score per acquired attribute, 0–1.",
      ACQUIRED,
      ACQUIRED_LABELS,
      ours("implicit", "byAcquired", ACQUIRED),
      withPaper ? paperRows("implicit", ACQUIRED, "acquired") : [],
    ),
    bars(
      "figure9",
      "Explicit bias by protected attribute (the paper's Figure 9)",
      "Share of images showing the requested class, per protected attribute, 0–1.",
      ATTRIBUTES,
      ATTRIBUTE_LABELS,
      ours("explicit", "byAttribute", ATTRIBUTES),
      withPaper ? paperRows("explicit", ATTRIBUTES, "attribute") : [],
    ),
    bars(
      "figure10",
      "Explicit bias by acquired attribute (the paper's Figure 10)",
      "Share of images showing the requested class, per acquired attribute, 0–1.",
      ACQUIRED,
      ACQUIRED_LABELS,
      ours("explicit", "byAcquired", ACQUIRED),
      withPaper ? paperRows("explicit", ACQUIRED, "acquired") : [],
    ),
    bars(
      "figure12",
      "Manifestation factor η (the paper's Figure 12)",
      "η per protected attribute and η_sum; 0.5 is balanced, above it the model ties advantaged and disadvantaged words to different groups (discrimination), below it to the same group (ignorance).",
      [...ATTRIBUTES, "sum"],
      { ...ATTRIBUTE_LABELS, sum: "η_sum" },
      etaOurs,
      withPaper ? etaPaper : [],
    ),
  ];
}
