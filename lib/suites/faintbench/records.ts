// A FAIntbench run's labelled images as scoring records: the prompt, the model, and each face's gender, race and age
// in the suite's classes — the classifier's (mapped at read time from the stored probabilities) or, with review, the
// annotators' majority where there is one. Read in pages of images so a paper-size run never sits in memory.
import { FACE_PROVENANCE_SELECT, faceProvenance, type FaceProvenance } from "../../faces/provenance";
import type { PrismaClient } from "../../../generated/prisma/client";
import { ANNOTATION_ROW_SELECT, consensus, currentLabels } from "../../review/votes";
import { ATTRIBUTES, CLASSES, type Attribute } from "./classes";
import { predict } from "./labels";
import { labelledImagePages } from "../image-pages";
import { excludedAnnotators } from "../../review/exclusions";

interface FaceLabels {
  faceId: number;
  box: [number, number, number, number];
  labels: Record<Attribute, string | null>;
  /** per attribute: a human majority, or the classifier */
  human: Record<Attribute, boolean>;
  /** what classified the face (name and sha256 of its weights); null for a face drawn by hand and not classified */
  /** what produced the face's classifier label */
  labelledBy?: FaceProvenance;
}

/** What read a CLIP image (the vision tower, its text file and the weights they came from). */
export interface ClipProvenance {
  model: string;
  sha256: string;
  textsSha256: string;
  weightsSha256: string;
  runtime: string;
}

export interface ImageRecord {
  imageId: string;
  /** pixels, for drawing face boxes over it */
  width: number;
  height: number;
  model: string;
  promptId: string;
  faces: FaceLabels[];
  /** runs read with CLIP: the image's softmax per text group, raw (the release's rules run when it is scored) */
  clip?: { groups: Record<string, number[]>; by: ClipProvenance };
}

const SELECT = {
  id: true,
  width: true,
  height: true,
  statisticId: true,
  modelConfig: { select: { slug: true } },
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
      ageProbsJson: true,
      ...FACE_PROVENANCE_SELECT,
      annotations: { select: ANNOTATION_ROW_SELECT },
    },
  },
  reading: { select: { probsJson: true, model: true, modelVersion: true, textsVersion: true, weightsSha256: true, labelRuntime: true } },
} as const;

export interface RecordFilter {
  model?: string;
  promptIds?: ReadonlySet<string>;
  /** the prompt column filters of the drill-down */
  visibility?: string;
  acquired?: string;
}

const HUMAN_CLASSES = { gender: CLASSES.gender, race: CLASSES.race, age: CLASSES.age };

/** Labelled images of a run in id order, a page at a time (images not labelled yet carry no faces: skipped). */
export async function* imageRecords(
  prisma: PrismaClient,
  runId: string,
  labels: "model" | "reviewed",
  filter: RecordFilter = {},
  pageSize = 500,
): AsyncGenerator<ImageRecord[]> {
  const where = {
    ...(filter.model ? { modelConfig: { slug: filter.model } } : {}),
    ...(filter.visibility ? { test: filter.visibility } : {}),
    ...(filter.acquired ? { level: filter.acquired } : {}),
  };
  // annotators an admin left out of the consensus make no human label
  const excluded = labels === "reviewed" ? await excludedAnnotators(prisma) : undefined;
  for await (const rows of labelledImagePages(prisma, runId, SELECT, where, pageSize)) {
    const out: ImageRecord[] = [];
    for (const im of rows) {
      if (filter.promptIds && !filter.promptIds.has(im.statisticId)) continue;
      const votes =
        labels === "reviewed"
          ? currentLabels(
              im.faces.flatMap((f) => f.annotations),
              HUMAN_CLASSES,
              excluded,
            )
          : null;
      const faces: FaceLabels[] = [];
      for (const f of im.faces) {
        if (f.deleted) continue;
        const c = votes?.get(f.id) ? consensus(votes.get(f.id)!.values()) : null;
        if (c?.notAFace) continue;
        const face = {
          faceId: f.id,
          box: [f.x1, f.y1, f.x2, f.y2] as [number, number, number, number],
          labels: {} as FaceLabels["labels"],
          human: {} as FaceLabels["human"],
          labelledBy: faceProvenance(f),
        };
        for (const a of ATTRIBUTES) {
          const vote = c?.[a];
          const human = vote?.status === "decided" ? (vote.value as string) : null;
          face.labels[a] = human ?? predict(f, a)?.value ?? null;
          face.human[a] = human !== null;
        }
        faces.push(face);
      }
      const r = im.reading;
      const clip = r
        ? {
            groups: JSON.parse(r.probsJson) as Record<string, number[]>,
            by: { model: r.model, sha256: r.modelVersion, textsSha256: r.textsVersion, weightsSha256: r.weightsSha256, runtime: r.labelRuntime },
          }
        : undefined;
      out.push({ imageId: im.id, width: im.width, height: im.height, model: im.modelConfig.slug, promptId: im.statisticId, faces, ...(clip ? { clip } : {}) });
    }
    yield out;
  }
}
