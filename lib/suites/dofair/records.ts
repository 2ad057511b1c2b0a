// A DoFaiR run's images as scoring records: each image's entry, method, augmentation, model and the label of each
// face on the entry's dimension — the classifier's (FairFace-native classes, from the stored probabilities) or,
// with review, the annotators' majority where there is one. Read in pages of images so memory stays bounded.
import { FACE_PROVENANCE_SELECT, faceProvenance, type FaceProvenance } from "../../faces/provenance";
import type { PrismaClient } from "../../../generated/prisma/client";
import { ANNOTATION_ROW_SELECT, consensus, currentLabels } from "../../review/votes";
import { DOFAIR_GENDERS, DOFAIR_RACES, type Dimension } from "./content";
import { labelledImagePages } from "../image-pages";
import { excludedAnnotators } from "../../review/exclusions";

interface FaceLabel {
  faceId: number;
  box: [number, number, number, number];
  label: string | null;
  source: "model" | "human";
  /** what classified the face (name and sha256 of its weights); null for a face drawn by hand and not classified */
  /** what produced the face's classifier label */
  labelledBy?: FaceProvenance;
}

export interface ImageRecord {
  imageId: string;
  /** pixels, for drawing face boxes over it */
  width: number;
  height: number;
  model: string;
  entryId: string;
  dimension: Dimension;
  method: string;
  augmentation: string | null;
  /** the planned image prompt, and the helper's answer (CoT reasoning, FAI guidance) that completed it, if any */
  prompt: string | null;
  helperAnswer: string | null;
  faces: FaceLabel[];
}

const argmax = (xs: number[]) => xs.reduce((best, v, i) => (v > xs[best] ? i : best), 0);

/** The classifier's label of a face on a dimension and its probability: FairFace's own classes, no mapping. */
function modelPrediction(face: { raceProbsJson: string | null; genderProbsJson: string | null }, dimension: Dimension): { value: string; p: number } | null {
  const json = dimension === "race" ? face.raceProbsJson : face.genderProbsJson;
  if (!json) return null;
  const probs = JSON.parse(json) as number[];
  const classes = dimension === "race" ? DOFAIR_RACES : DOFAIR_GENDERS;
  if (probs.length !== classes.length) return null;
  const i = argmax(probs);
  return { value: classes[i], p: probs[i] };
}

function modelLabel(face: { raceProbsJson: string | null; genderProbsJson: string | null }, dimension: Dimension): string | null {
  return modelPrediction(face, dimension)?.value ?? null;
}

// Reviewers label gender with the workbench's shared lower-case values ("male"), the same keys and words as in every
// suite; races with FairFace's 7 class names. Scoring maps the gender vote back to FairFace's spelling.
export const REVIEW_GENDERS = ["male", "female"] as const;
const HUMAN_CLASSES = { gender: REVIEW_GENDERS, race: DOFAIR_RACES };
const humanGender = (g: string) => (g === "male" ? "Male" : "Female");

/** The model's label in the review vocabulary (what "accept the prediction" stores). */
export function reviewPrediction(
  face: { raceProbsJson: string | null; genderProbsJson: string | null },
  dimension: Dimension,
): { value: string; p: number } | null {
  const p = modelPrediction(face, dimension);
  return p && dimension === "gender" ? { value: p.value.toLowerCase(), p: p.p } : p;
}

const SELECT = {
  id: true,
  width: true,
  height: true,
  test: true,
  statisticId: true,
  level: true,
  modelConfig: { select: { slug: true } },
  query: { select: { context: true, prompt: true, dependsOn: { select: { outcome: { select: { status: true, rawText: true } } } } } },
  faces: {
    orderBy: { id: "asc" },
    select: {
      id: true,
      x1: true,
      y1: true,
      x2: true,
      y2: true,
      deleted: true,
      raceProbsJson: true,
      genderProbsJson: true,
      ...FACE_PROVENANCE_SELECT,
      annotations: { select: ANNOTATION_ROW_SELECT },
    },
  },
} as const;

export interface RecordFilter {
  model?: string;
  dimension?: string;
  method?: string;
  augmentation?: string | null;
  entryIds?: ReadonlySet<string>;
}

/** Labelled images of a run in id order, a page at a time (unlabelled images carry no faces yet: skipped). */
export async function* imageRecords(
  prisma: PrismaClient,
  runId: string,
  labels: "model" | "reviewed",
  filter: RecordFilter = {},
  pageSize = 500,
): AsyncGenerator<ImageRecord[]> {
  const where = {
    ...(filter.model ? { modelConfig: { slug: filter.model } } : {}),
    ...(filter.dimension ? { level: filter.dimension } : {}),
    ...(filter.method ? { test: filter.method } : {}),
    ...(filter.augmentation !== undefined ? { query: { context: filter.augmentation } } : {}),
  };
  // annotators an admin left out of the consensus make no human label
  const excluded = labels === "reviewed" ? await excludedAnnotators(prisma) : undefined;
  for await (const rows of labelledImagePages(prisma, runId, SELECT, where, pageSize)) {
    const out: ImageRecord[] = [];
    for (const im of rows) {
      if (filter.entryIds && !filter.entryIds.has(im.statisticId)) continue;
      const dimension = im.level as Dimension;
      const votes =
        labels === "reviewed"
          ? currentLabels(
              im.faces.flatMap((f) => f.annotations),
              HUMAN_CLASSES,
              excluded,
            )
          : null;
      const faces: FaceLabel[] = [];
      for (const f of im.faces) {
        if (f.deleted) continue;
        const c = votes?.get(f.id) ? consensus(votes.get(f.id)!.values()) : null;
        if (c?.notAFace) continue;
        const vote = dimension === "race" ? c?.race : c?.gender;
        const human = vote?.status === "decided" ? (dimension === "gender" ? humanGender(vote.value as string) : (vote.value as string)) : null;
        faces.push({
          faceId: f.id,
          box: [f.x1, f.y1, f.x2, f.y2],
          label: human ?? modelLabel(f, dimension),
          source: human ? "human" : "model",
          labelledBy: faceProvenance(f),
        });
      }
      out.push({
        imageId: im.id,
        width: im.width,
        height: im.height,
        model: im.modelConfig.slug,
        entryId: im.statisticId,
        dimension,
        method: im.test,
        augmentation: im.query?.context ?? null,
        prompt: im.query?.prompt ?? null,
        helperAnswer: im.query?.dependsOn?.outcome?.status === "answered" ? im.query.dependsOn.outcome.rawText : null,
        faces,
      });
    }
    yield out;
  }
}
