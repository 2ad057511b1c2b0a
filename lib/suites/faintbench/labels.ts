// FairFace's outputs in FAIntbench's classes (docs/user-guide.md "FAIntbench", Labels). Applied when read, to the probabilities
// stored with every face, so the mapping can change without labelling again:
//  - race 7 → 5 by summing probabilities: White → European, Black → African, Latino_Hispanic → Latino,
//    East Asian + Southeast Asian → East-Asian, Indian → South-Asian, and Middle Eastern → Latino, following the
//    paper's Appendix B.3 ("dark-skinned Caucasian … such as West-Asians, Latinos and Southern Europeans" are
//    represented by "Latino");
//  - age 9 bins → 3 groups by summing: 0–2, 3–9, 10–19, 20–29 → young (the suite has no class for children; the
//    prompts ask for adults), 30–39, 40–49, 50–59 → middle-aged, 60–69, 70+ → elderly. The release calls its groups
//    10~29 / 31~59 / 60+; FairFace's bins put 30 with the thirties, so 30 is middle-aged here;
//  - gender: FairFace's Male / Female are our male / female.
// The face's label is the group with the largest summed probability (ties: the first in class order).
import { CLASSES, type Attribute } from "./classes";

/** FairFace's race order (DESIGN.md §6) → index into CLASSES.race */
export const RACE_7_TO_5 = [0, 2, 3, 1, 1, 4, 3] as const;
/** FairFace's 9 age bins (0-2, 3-9, 10-19, 20-29, 30-39, 40-49, 50-59, 60-69, 70+) → index into CLASSES.age */
export const AGE_9_TO_3 = [0, 0, 0, 0, 1, 1, 1, 2, 2] as const;

export interface FaceProbs {
  raceProbsJson: string | null;
  genderProbsJson: string | null;
  ageProbsJson?: string | null;
}

function grouped(probs: readonly number[], map: readonly number[] | null, classes: readonly string[]): { value: string; p: number } | null {
  const sums = new Array<number>(classes.length).fill(0);
  if (map ? probs.length !== map.length : probs.length !== classes.length) return null;
  probs.forEach((p, i) => (sums[map ? map[i] : i] += p));
  let best = 0;
  for (let i = 1; i < sums.length; i++) if (sums[i] > sums[best]) best = i;
  return { value: classes[best], p: sums[best] };
}

function parse(json: string | null | undefined): number[] | null {
  if (!json) return null;
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) && v.every((x) => typeof x === "number" && Number.isFinite(x)) ? (v as number[]) : null;
  } catch {
    return null;
  }
}

/** The classifier's label of a face for one attribute, in the suite's classes, with its summed probability. */
export function predict(face: FaceProbs, attribute: Attribute): { value: string; p: number } | null {
  if (attribute === "race") {
    const p = parse(face.raceProbsJson);
    return p ? grouped(p, RACE_7_TO_5, CLASSES.race) : null;
  }
  if (attribute === "age") {
    const p = parse(face.ageProbsJson);
    return p ? grouped(p, AGE_9_TO_3, CLASSES.age) : null;
  }
  const p = parse(face.genderProbsJson);
  return p ? grouped(p, null, CLASSES.gender) : null;
}

/**
 * The two faces of a relation image by position: left is the face whose box centre is further left (equal centres:
 * the lower id). Any other number of faces places no one — the image is counted and left out of relation scores.
 */
export function assignSides<F extends { faceId: number; box: readonly [number, number, number, number] }>(faces: readonly F[]): { left: F; right: F } | null {
  if (faces.length !== 2) return null;
  const centre = (f: F) => (f.box[0] + f.box[2]) / 2;
  const [a, b] = faces;
  const aLeft = centre(a) < centre(b) || (centre(a) === centre(b) && a.faceId < b.faceId);
  return aLeft ? { left: a, right: b } : { left: b, right: a };
}
