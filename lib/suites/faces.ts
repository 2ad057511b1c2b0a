// What the face pages (review, agreement, report) need from a face's suite: its label set, the model's label in that
// set, the title of the item an image was generated for. A face's suite is its run's; faces of images without a run
// (none today) and of runs planned before suites existed belong to the default suite.
import { DEFAULT_SUITE_ID, findSuite, listSuites } from ".";
import type { AnySuite, FaceAttribute } from "./types";
import type { LabelAttribute, LabelSets } from "../review/label-set";

export function suiteOfFace(suiteId: string | null | undefined): AnySuite {
  return findSuite(suiteId ?? DEFAULT_SUITE_ID) ?? findSuite(DEFAULT_SUITE_ID)!;
}

/** Every suite's label attributes, without the server-side readers: what the review pages send to the browser. */
export function labelSets(): LabelSets {
  return Object.fromEntries(
    listSuites().map((s) => [s.id, s.faceAttributes.map(({ id, label, classes, keys }): LabelAttribute => ({ id, label, classes, keys }))]),
  );
}

type Probs = { raceProbsJson: string | null; genderProbsJson: string | null; ageProbsJson?: string | null };
const attr = (s: AnySuite, id: string): FaceAttribute | undefined => s.faceAttributes.find((a: FaceAttribute) => a.id === id);

/**
 * The model's gender and race (and age, where the suite scores it) for a face in its suite's classes, with
 * confidences; null without classifier output.
 */
export function suitePrediction(suite: AnySuite, face: Probs) {
  const gender = attr(suite, "gender")?.predict(face) ?? null;
  const race = attr(suite, "race")?.predict(face) ?? null;
  const age = attr(suite, "age")?.predict(face) ?? null;
  if (!gender && !race) return null;
  return {
    gender: gender?.value ?? null,
    genderConfidence: gender?.p ?? 0,
    race: race?.value ?? null,
    raceConfidence: race?.p ?? 0,
    age: age?.value ?? null,
    ageConfidence: age?.p ?? 0,
  };
}

// Titles come from the suite's current content (display only; scores read the run's pinned content).
const titles = new Map<string, Map<string, string>>();
export function itemTitle(suite: AnySuite, itemId: string): string {
  let m = titles.get(suite.id);
  if (!m) titles.set(suite.id, (m = new Map(suite.items(suite.content()).map((i) => [i.id, i.title]))));
  return m.get(itemId) ?? itemId;
}
