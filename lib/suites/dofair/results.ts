// DoFaiR's result views: Table 2's layout with the paper's rows beside ours, Figure 5's "more diverse but less
// factual" breakdown, and the drill-down from a cell to its entries, images and faces.
import { clusteredMeanIntervals, type MeanUnit } from "../../metrics/mean-bootstrap";
import { DEFAULT_INTERVAL_TARGET, INTERVAL_TARGET_LABELS } from "../../metrics/design";
import publishedJson from "../../../data/suites/dofair/published.json";
import type { DrillRequest, ResultsRequest, SuiteContext } from "../types";
import type { BarsView, ListView, SuiteView, TableView, ViewCell, ViewRow } from "../views";
import { verifiedItems } from "../content-review";
import { classesOf, type DofairContent, type Entry } from "./content";
import { averageScores, ddcOrderRange, diversityVsFactuality, imageClasses, mean, METRICS, scoreImageAs, type ImageScores } from "./metrics";
import { DEFAULT_PROFILE, PROFILE_LABELS, type ScoringProfile } from "../../metrics/profiles";
import { AUGMENTATION_LABELS, METHOD_LABELS, METHODS, WORDING_LABELS, WORDINGS, type Augmentation, type Method } from "./prompts";
import { imageRecords } from "./records";
import { byCodeUnits } from "../../core/order";

export const COLUMNS = [
  { id: "ddc", label: "DDC (%) ↑", better: "up", digits: 2, unit: "%" },
  { id: "idc", label: "IDC (%) ↑", better: "up", digits: 2, unit: "%" },
  { id: "idf", label: "IDF (%) ↑", better: "up", digits: 2, unit: "%" },
  { id: "fdd", label: "FDD (% → 0)", better: "zero", digits: 2, unit: "%" },
] as const;
/** Under the release profile: the DDC a different (file-system) order of the same faces would have given. */
const ORDER_COLUMNS = [
  { id: "ddcWorst", label: "DDC, worst face order (%)", better: "up", digits: 2, unit: "%" },
  { id: "ddcBest", label: "DDC, best face order (%)", better: "up", digits: 2, unit: "%" },
] as const;

export const variantLabel = (method: string, augmentation: string | null) =>
  augmentation ? (AUGMENTATION_LABELS[augmentation as Augmentation] ?? augmentation) : (METHOD_LABELS[method as Method] ?? method);
const variantOrder = (method: string, augmentation: string | null) =>
  METHODS.indexOf(method as Method) * 10 + (augmentation ? ["cot", "fai-vk", "fai-rk"].indexOf(augmentation) + 1 : 0);

interface Cell {
  model: string;
  dimension: string;
  method: string;
  augmentation: string | null;
  scores: ImageScores[];
  /** the same scores with the entry each image belongs to (the intervals resample entries, or images within them) */
  units: Array<MeanUnit<(typeof METRICS)[number]>>;
  noFace: number;
  /** per entry: diversity (|I_inv|) and IDF of each image, for Figure 5 */
  perEntry: Map<string, { diversity: number[]; idf: number[] }>;
  /** release: each scored image's DDC under the worst and best face order, and how many depend on the order */
  order: { min: number[]; max: number[]; dependent: number };
}

/** Everything the views need, in one pass over the run's labelled images. */
export async function collect(
  ctx: SuiteContext,
  runId: string,
  content: DofairContent,
  labels: "model" | "reviewed",
  only: ReadonlySet<string> | undefined,
  profile: ScoringProfile,
) {
  const entries = new Map(content.entries.map((e) => [e.id, e]));
  const cells = new Map<string, Cell>();
  for await (const page of imageRecords(ctx.prisma, runId, labels, { entryIds: only })) {
    for (const r of page) {
      const e = entries.get(r.entryId);
      if (!e) continue;
      const key = JSON.stringify([r.model, r.dimension, r.method, r.augmentation]);
      let c = cells.get(key);
      if (!c)
        cells.set(
          key,
          (c = {
            model: r.model,
            dimension: r.dimension,
            method: r.method,
            augmentation: r.augmentation,
            scores: [],
            units: [],
            noFace: 0,
            perEntry: new Map(),
            order: { min: [], max: [], dependent: 0 },
          }),
        );
      const labelsOf = r.faces.map((f) => f.label);
      const s = scoreImageAs(profile, labelsOf, e, classesOf(e.dimension));
      if (!s) {
        c.noFace++;
        continue;
      }
      c.scores.push(s);
      c.units.push({ cluster: e.id, values: s });
      if (profile === "release") {
        const range = ddcOrderRange(labelsOf, e, classesOf(e.dimension))!;
        c.order.min.push(range.min);
        c.order.max.push(range.max);
        if (range.dependsOnOrder) c.order.dependent++;
      }
      let pe = c.perEntry.get(e.id);
      if (!pe) c.perEntry.set(e.id, (pe = { diversity: [], idf: [] }));
      pe.diversity.push(imageClasses(labelsOf).involved.size);
      pe.idf.push(s.idf);
    }
  }
  return cells;
}

const pct = (v: number | null) => (v === null ? null : v * 100);

/**
 * Which wording a run's prompts followed, from the config it was planned with (never today's default): runs planned
 * before the choice was recorded used the appendix's gender Bansal sentence and CoT as a suffix of the image prompt.
 */
async function wordingNote(ctx: SuiteContext, runId: string): Promise<string> {
  const run = await ctx.prisma.run.findUnique({ where: { id: runId }, select: { configJson: true } });
  const w = run ? (JSON.parse(run.configJson) as { wording?: unknown }).wording : undefined;
  return (WORDINGS as readonly unknown[]).includes(w)
    ? `Prompts: ${WORDING_LABELS[w as (typeof WORDINGS)[number]]}.`
    : "Prompts: planned before the wording was recorded (the appendix's gender Bansal sentence; CoT as “Think step by step.” appended to the image prompt).";
}

export async function dofairResults(ctx: SuiteContext, req: ResultsRequest, content: DofairContent, seed: number): Promise<SuiteView[]> {
  const only = req.verifiedOnly ? await verifiedItems(ctx.prisma, "dofair") : undefined;
  const profile = req.profile ?? DEFAULT_PROFILE;
  const target = req.target ?? DEFAULT_INTERVAL_TARGET;
  const cells = await collect(ctx, req.runId, content, req.labels, only, profile);
  const wording = await wordingNote(ctx, req.runId);
  const set = req.verifiedOnly
    ? `verified entries only (${only!.size} verified)`
    : `all ${content.entries.length} entries of ${content.version} (reviewed or not)`;
  const groups: TableView["groups"] = [];
  for (const dimension of ["race", "gender"]) {
    const rows: ViewRow[] = [];
    const mine = [...cells.values()]
      .filter((c) => c.dimension === dimension)
      .sort((a, b) => byCodeUnits(a.model, b.model) || variantOrder(a.method, a.augmentation) - variantOrder(b.method, b.augmentation));
    for (const c of mine) {
      const avg = averageScores(c.scores);
      const ci = clusteredMeanIntervals(c.units, METRICS, {
        resamples: req.resamples,
        seed,
        key: JSON.stringify([c.model, dimension, c.method, c.augmentation]),
        target,
        range: [-1, 1],
        quantile: req.quantile,
      });
      const drill = { model: c.model, dimension, method: c.method, augmentation: c.augmentation ?? "none" };
      const order: Record<string, ViewCell> =
        profile === "release"
          ? {
              ddcWorst: {
                value: pct(mean(c.order.min)),
                n: c.scores.length,
                note: `the DDC depends on face order in ${c.order.dependent} of ${c.scores.length} images`,
              },
              ddcBest: {
                value: pct(mean(c.order.max)),
                n: c.scores.length,
                note: `the DDC depends on face order in ${c.order.dependent} of ${c.scores.length} images`,
              },
            }
          : {};
      rows.push({
        labels: [c.model, variantLabel(c.method, c.augmentation)],
        source: "run",
        cells: {
          ...Object.fromEntries(
            METRICS.map((m) => [
              m,
              {
                value: pct(avg[m]),
                lo: pct(ci[m]?.lo ?? null) ?? undefined,
                hi: pct(ci[m]?.hi ?? null) ?? undefined,
                n: c.scores.length,
                drill,
                note: c.noFace ? `${c.noFace} image(s) without a face left out` : undefined,
              },
            ]),
          ),
          ...order,
        },
      });
    }
    // The paper's numbers came from its released code: they sit beside that profile only.
    if (profile === "release")
      for (const p of publishedJson.rows.filter((r) => r.dimension === dimension))
        rows.push({
          labels: [`${p.model} (paper)`, variantLabel(p.method, p.augmentation)],
          source: "published",
          flag: (p as { flag?: string }).flag,
          cells: {
            ddc: { value: p.ddc },
            idc: { value: p.idc },
            idf: { value: p.idf },
            fdd: { value: p.fdd },
            ddcWorst: { value: null },
            ddcBest: { value: null },
          },
        });
    groups.push({ title: dimension === "race" ? "Race (C = 7)" : "Gender (C = 2)", rows });
  }
  const table: TableView = {
    kind: "table",
    id: "table2",
    title: "Demographic factuality (the paper's Table 2)",
    caption: `Averages over images, in %, with ${req.resamples ? `95 % intervals about ${INTERVAL_TARGET_LABELS[target]} (${target === "population" ? "entries resampled with all their images" : "images resampled within their entry"}; ${req.quantile === "normal" ? "bias-corrected estimate ± z × standard error, the larger of the bootstrap's and the jackknife's" : "bias-corrected estimate ± t × standard error, the larger of the bootstrap's and the jackknife's, t on the jackknife's degrees of freedom"}, ${req.resamples} resamples)` : "no intervals"}; n = images with at least one face. Labels: ${req.labels === "reviewed" ? "human-corrected where reviewed" : "the face classifier's"}. Scored on ${set}. Scoring: ${profile} — ${PROFILE_LABELS[profile]}${profile === "release" ? "" : "; the paper's rows are shown with the release profile only"}. ${content.origin?.kind === "official" ? "Entries: the paper's own (the official release's CSVs, imported by a user), so the rows compare entry for entry; images and the face classifier still differ." : "Entries: the workbench's sample set, not the paper's 756: compare shapes, not digits (import the official entries on the Benchmark page to compare entry for entry)."} ${wording}${profile === "release" ? " DDC takes the top classes by face count with ties broken by the order faces are listed; the release's order is os.listdir's, which the file system decides, so DDC under the worst and best order of the same faces stands beside it: a difference to the paper within that range can come from the order alone." : ""}`,
    labelHeaders: ["Model", "Method"],
    columns: [...COLUMNS, ...(profile === "release" ? ORDER_COLUMNS : [])].map((c) => ({ ...c })),
    groups,
  };
  return [table, figure5(cells)];
}

function figure5(cells: Map<string, Cell>): BarsView {
  const data: BarsView["data"] = [];
  const models = [...new Set([...cells.values()].map((c) => c.model))].sort();
  for (const model of models)
    for (const dimension of ["gender", "race"]) {
      const base = cells.get(JSON.stringify([model, dimension, "baseline", null]));
      if (!base) continue;
      const shares: Array<ReturnType<typeof diversityVsFactuality>> = [];
      for (const method of ["bansal", "bianchi"]) {
        const iv = cells.get(JSON.stringify([model, dimension, method, null]));
        if (!iv) continue;
        const pairs = [...iv.perEntry].flatMap(([id, v]) => {
          const b = base.perEntry.get(id);
          return b
            ? [{ baseline: { diversity: mean(b.diversity)!, idf: mean(b.idf)! }, intervened: { diversity: mean(v.diversity)!, idf: mean(v.idf)! } }]
            : [];
        });
        shares.push(diversityVsFactuality(pairs));
      }
      if (!shares.length) continue;
      // Averaged over the interventions, as the paper does.
      const avg = (k: "moreDiverse" | "lessFactualGivenMoreDiverse") => pct(mean(shares.map((s) => s[k]).filter((x): x is number => x !== null)));
      data.push({
        label: `${model} · ${dimension}`,
        values: { moreDiverse: avg("moreDiverse"), lessFactual: avg("lessFactualGivenMoreDiverse") },
        n: shares[0].entries,
      });
    }
  for (const p of publishedJson.figure5)
    data.push({ label: `${p.model} (paper) · ${p.dimension}`, values: { moreDiverse: p.moreDiverse, lessFactual: p.lessFactualGivenMoreDiverse } });
  return {
    kind: "bars",
    id: "figure5",
    title: "More diverse, but less factual (the paper's Figure 5)",
    caption:
      "Per entry, each intervention's images against the baseline's, averaged over the two interventions: the share of entries whose images show more involved classes, and of those the share whose IDF fell. n = entries with images on both sides.",
    unit: "%",
    series: [
      { id: "moreDiverse", label: "more diverse (% of entries)" },
      { id: "lessFactual", label: "of those, less factual (%)" },
    ],
    data,
  };
}

const fmt = (xs: readonly string[]) => (xs.length ? xs.join(", ") : "—");

export async function dofairDrill(ctx: SuiteContext, req: DrillRequest, content: DofairContent): Promise<SuiteView[]> {
  const pageSize = 50;
  const entries = new Map<string, Entry>(content.entries.map((e) => [e.id, e]));
  const aug = req.cell.augmentation === undefined ? undefined : req.cell.augmentation === "none" ? null : req.cell.augmentation;
  const rows: ListView["rows"] = [];
  let total = 0;
  const from = req.page * pageSize;
  for await (const page of imageRecords(ctx.prisma, req.runId, req.labels, {
    model: req.cell.model,
    dimension: req.cell.dimension,
    method: req.cell.method,
    augmentation: aug,
  })) {
    for (const r of page) {
      const e = entries.get(r.entryId);
      if (!e) continue;
      total++;
      if (total <= from || rows.length >= pageSize) continue;
      const labels = r.faces.map((f) => f.label);
      const img = imageClasses(labels);
      const s = scoreImageAs(req.profile ?? DEFAULT_PROFILE, labels, e, classesOf(e.dimension));
      rows.push({
        cells: [
          e.event,
          `${e.group} · ${e.period} · ${e.culture}`,
          `${fmt(e.dominant)} / ${fmt(e.involved)}`,
          `${fmt([...img.dominant])} / ${fmt([...img.involved])}`,
          s ? METRICS.map((m) => `${m.toUpperCase()} ${(s[m] * 100).toFixed(1)}`).join(" · ") : "no face: left out",
        ],
        imageIds: [r.imageId],
        images: [{ id: r.imageId, width: r.width, height: r.height }],
        faces: r.faces.map((f) => ({ imageId: r.imageId, box: f.box, label: `${f.label ?? "?"}${f.source === "human" ? " (reviewed)" : ""}` })),
      });
    }
  }
  return [
    {
      kind: "list",
      id: "drill",
      title: `${req.cell.model ?? "all models"} · ${req.cell.dimension ?? "both dimensions"} · ${variantLabel(req.cell.method ?? "", aug ?? null)}`,
      caption: "Each image with its entry: the truth (dominant / involved) against what its faces show (dominant / involved), and the image's four scores.",
      columns: ["Event", "Group · period · culture", "Truth: dominant / involved", "Image: dominant / involved", "Scores (%)"],
      rows,
      total,
      page: req.page,
      pageSize,
    },
  ];
}
