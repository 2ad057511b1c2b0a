// Who labelled what and how far annotators agree: the report behind the Review → Agreement and Report pages.
import { z } from "zod";
import type { PrismaClient } from "../../../generated/prisma/client";
import { FACE_RECORD_SELECT } from "../results/run-results";
import { annotatorMeasures } from "./annotators";
import { excludedAnnotators } from "../../review/exclusions";
import { classErrors, errorDisparity } from "../../review/labeller-error";
import { agreement, cohenKappa, consensus, currentLabels, detectorReport, type AnnotatorLabel, type AttributeReport, type KappaResult } from "../../review";
import { byCodeUnits } from "../../core/order";

export const reportScopeSchema = z.object({
  runId: z.string().max(40).optional(),
  model: z.string().max(80).optional(),
  assignmentId: z.string().max(40).optional(),
  /** page of the annotator pairs (and of the annotators), PAIRS_PAGE_SIZE each */
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

const PAIRS_PAGE_SIZE = 50;
const ANNOTATORS_PAGE_SIZE = 100;

/** A face's label of one attribute for agreement: "not a face" counts for the face attribute only. */
function attrLabel(l: AnnotatorLabel, attr: Attr): string | null {
  if (attr === FACE) return l.notAFace ? "not a face" : "face";
  return !l.notAFace ? (l.values[attr] ?? null) : null;
}

/**
 * The columns: gender and race (every suite labels them), any other attribute someone labelled (a suite's own, age
 * first), then face / not a face.
 */
function attributesOf(labels: Map<number, Map<string, AnnotatorLabel>>): Attr[] {
  const seen = new Set<string>(["gender", "race"]);
  for (const m of labels.values()) for (const l of m.values()) for (const a of Object.keys(l.values)) seen.add(a);
  const order = ["gender", "race", "age"];
  const rank = (a: string) => (order.includes(a) ? order.indexOf(a) : order.length);
  return [...[...seen].sort((a, b) => rank(a) - rank(b) || byCodeUnits(a, b)), FACE];
}

/**
 * Cohen's kappa for every pair of annotators who share faces, in one pass over the faces (each face contributes to
 * the few pairs among its own annotators), so hundreds of annotators cost what their labels cost, not A² passes.
 */
function pairKappas(labels: Map<number, Map<string, AnnotatorLabel>>, attrs: Attr[]) {
  const pairs = new Map<string, { annotators: [string, string]; items: Record<Attr, Array<readonly [string, string]>> }>();
  for (const byAnnotator of labels.values()) {
    const names = [...byAnnotator.keys()].sort();
    for (let i = 0; i < names.length; i++)
      for (let j = i + 1; j < names.length; j++) {
        const key = `${names[i]}\u0000${names[j]}`;
        let p = pairs.get(key);
        if (!p) pairs.set(key, (p = { annotators: [names[i], names[j]], items: Object.fromEntries(attrs.map((a) => [a, []])) }));
        for (const a of attrs) {
          const x = attrLabel(byAnnotator.get(names[i])!, a);
          const y = attrLabel(byAnnotator.get(names[j])!, a);
          if (x !== null && y !== null) p.items[a].push([x, y]);
        }
      }
  }
  return [...pairs.values()]
    .map((p) => ({
      annotators: p.annotators,
      shared: Math.max(...attrs.map((a) => p.items[a].length)),
      kappa: Object.fromEntries(attrs.map((a) => [a, cohenKappa(p.items[a])])) as Record<Attr, KappaResult | null>,
    }))
    .sort((a, b) => b.shared - a.shared || byCodeUnits(a.annotators.join(), b.annotators.join()));
}

async function scopedFaces(prisma: PrismaClient, scope: z.infer<typeof reportScopeSchema>) {
  const image = {
    ...(scope.runId ? { runId: scope.runId } : {}),
    ...(scope.model ? { modelConfig: { slug: scope.model } } : {}),
    ...(scope.assignmentId ? { assignments: { some: { assignmentId: scope.assignmentId } } } : {}),
  };
  return prisma.face.findMany({
    where: { image },
    select: FACE_RECORD_SELECT,
    orderBy: { id: "asc" },
  });
}

/** an attribute id a suite declares, or FACE (whether it is a face at all) */
type Attr = string;
const FACE = "face";

function kappaFor(labels: Map<number, Map<string, AnnotatorLabel>>, annotators: string[], attr: Attr): KappaResult | null {
  const items: Array<Map<string, string>> = [];
  for (const byAnnotator of labels.values()) {
    const m = new Map<string, string>();
    for (const [name, l] of byAnnotator) {
      const v = attrLabel(l, attr);
      if (v !== null) m.set(name, v);
    }
    items.push(m);
  }
  return agreement(items, annotators);
}

export async function reviewReport(prisma: PrismaClient, input: z.input<typeof reportScopeSchema> = {}) {
  const scope = reportScopeSchema.parse(input);
  const faces = await scopedFaces(prisma, scope);
  const live = faces.filter((f) => !f.deleted);
  const labels = currentLabels(
    live.flatMap((f) => f.annotations),
    null,
  );
  // One pass over the labels for every annotator's progress (not one pass per annotator).
  const last = new Map<string, string>();
  const labelled = new Map<string, number>();
  for (const m of labels.values())
    for (const l of m.values()) {
      labelled.set(l.annotator, (labelled.get(l.annotator) ?? 0) + 1);
      if ((last.get(l.annotator) ?? "") < l.at) last.set(l.annotator, l.at);
    }
  const annotators = [...labelled.keys()].sort();
  const progress = annotators.map((name) => ({ name, labelled: labelled.get(name) ?? 0, lastAt: last.get(name) ?? null }));
  const attrs = attributesOf(labels);
  // Fleiss over everyone needs faces labelled by everyone: only meaningful for a small team.
  const overall = Object.fromEntries(attrs.map((a) => [a, annotators.length <= 20 ? kappaFor(labels, annotators, a) : null])) as Record<
    Attr,
    KappaResult | null
  >;
  const allPairs = pairKappas(labels, attrs);
  const from = (scope.page - 1) * PAIRS_PAGE_SIZE;
  const pairs = allPairs.slice(from, from + PAIRS_PAGE_SIZE);
  // The consensus leaves excluded annotators out (their agreement above still shows how far they agree).
  const [excluded, measured] = await Promise.all([
    excludedAnnotators(prisma),
    annotatorMeasures(
      prisma,
      labels,
      attrs.filter((a) => a !== FACE),
    ),
  ]);
  const majority = new Map<number, ReturnType<typeof consensus>>();
  for (const [id, m] of labels) {
    const votes = [...m.values()].filter((l) => !excluded.has(l.annotator));
    if (votes.length) majority.set(id, consensus(votes));
  }
  const report = detectorReport(
    faces.map((f) => ({
      source: f.source,
      deleted: f.deleted,
      genderProbs: f.genderProbsJson ? (JSON.parse(f.genderProbsJson) as number[]) : null,
      raceProbs: f.raceProbsJson ? (JSON.parse(f.raceProbsJson) as number[]) : null,
      consensus: majority.get(f.id) ?? null,
    })),
  );
  return {
    scope,
    faces: live.length,
    reviewed: labels.size,
    /** the attributes anyone labelled, in column order (a suite's own, then "face") */
    attributes: attrs,
    undecided: {
      gender: [...majority.values()].filter((c) => c.gender.status === "undecided").length,
      race: [...majority.values()].filter((c) => c.race.status === "undecided").length,
    },
    annotators: progress.slice((scope.page - 1) * ANNOTATORS_PAGE_SIZE, scope.page * ANNOTATORS_PAGE_SIZE),
    annotatorCount: annotators.length,
    agreement: { overall, pairs, pairCount: allPairs.length, page: scope.page, pageSize: PAIRS_PAGE_SIZE },
    detector: report,
    /** each annotator's accuracy on gold faces and agreement with the others, and who is excluded */
    quality: { gold: measured.gold, annotators: measured.annotators.slice((scope.page - 1) * ANNOTATORS_PAGE_SIZE, scope.page * ANNOTATORS_PAGE_SIZE) },
  };
}

/**
 * Where the classifier misreads one group separably more often than another on the reviewed faces of these runs
 * (the human majority, excluded annotators aside): a sentence per attribute, for pages comparing text-to-image
 * scores — a gap between two models smaller than the labeller's gap between groups may be the labeller's.
 */
export async function labellerWarnings(prisma: PrismaClient, runIds: readonly string[]): Promise<string[]> {
  const [faces, excluded] = await Promise.all([
    prisma.face.findMany({
      where: { image: { runId: { in: [...runIds] } }, deleted: false, annotations: { some: {} } },
      select: FACE_RECORD_SELECT,
    }),
    excludedAnnotators(prisma),
  ]);
  if (!faces.length) return [];
  const labels = currentLabels(
    faces.flatMap((f) => f.annotations),
    null,
    excluded,
  );
  const d = detectorReport(
    faces.map((f) => {
      const m = labels.get(f.id);
      return {
        source: "detector",
        deleted: false,
        genderProbs: f.genderProbsJson ? (JSON.parse(f.genderProbsJson) as number[]) : null,
        raceProbs: f.raceProbsJson ? (JSON.parse(f.raceProbsJson) as number[]) : null,
        consensus: m ? consensus(m.values()) : null,
      };
    }),
  );
  const out: string[] = [];
  const reports: Array<[string, AttributeReport<string>]> = [
    ["gender", d.gender as AttributeReport<string>],
    ["race", d.race.paper as AttributeReport<string>],
  ];
  for (const [attribute, r] of reports) {
    const errors = classErrors(r);
    // "the classifier": a run may be labelled by a stand-in, never to be read as FairFace's error
    const gap = errorDisparity(errors, attribute, "The classifier");
    if (!gap?.separable) continue;
    const worst = errors.find((e) => e.cls === gap.worst)!.rate!;
    const best = errors.find((e) => e.cls === gap.best)!.rate!;
    out.push(
      `${gap.sentence}: differences in ${attribute} scores smaller than ${((worst - best) * 100).toFixed(1)} points may be the labeller's, not the models'.`,
    );
  }
  return out;
}
