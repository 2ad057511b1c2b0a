// Annotators' labels for faces: the current label of each annotator, majority votes and the label a face carries
// once human review is taken into account. Pure: the database layer passes rows in.
import { GENDERS, RACES, type Gender, type Race } from "../benchmark/labels";

/** One stored annotation row (rows are appended; the newest per face and annotator is that annotator's label). */
export interface AnnotationRow {
  faceId: number;
  annotator: string;
  gender: string | null;
  race: string | null;
  /** age group (suites that score age; absent in rows read without it) */
  age?: string | null;
  notAFace: boolean;
  createdAt: Date | string;
  id?: number;
}

/** An annotator's current label for a face. A row with nothing set is a withdrawn label (an undo to "no label"). */
export interface AnnotatorLabel {
  annotator: string;
  gender: Gender | null;
  race: Race | null;
  age: string | null;
  notAFace: boolean;
  at: string;
}

/** The classes a label may take: FACT-OR-FAIR's by default; a suite with other classes (FairFace's 7 races) passes its own. */
export interface LabelClasses {
  gender: readonly string[];
  race: readonly string[];
  /** suites that score age; without it age values are not votes */
  age?: readonly string[];
}
export const FOF_LABEL_CLASSES: LabelClasses = { gender: GENDERS, race: RACES };

export function isEmptyLabel(l: { gender: string | null; race: string | null; age?: string | null; notAFace: boolean }): boolean {
  return !l.notAFace && l.gender === null && l.race === null && (l.age ?? null) === null;
}

/**
 * The newest row per (face, annotator), ordered by time and then id (rows written in the same millisecond keep
 * their insertion order). Withdrawn labels are dropped. Returns face id → annotator → label.
 */
export function currentLabels(rows: readonly AnnotationRow[], classes: LabelClasses | null = FOF_LABEL_CLASSES): Map<number, Map<string, AnnotatorLabel>> {
  // Values outside the classes (another suite's label, a stale spelling) are not votes. `null`: every stored value
  // counts — for the review pages, which show faces of several suites (each label was checked against its face's
  // suite when it was written).
  const asGender = (g: string | null): Gender | null => (g && (!classes || classes.gender.includes(g)) ? (g as Gender) : null);
  const asRace = (r: string | null): Race | null => (r && (!classes || classes.race.includes(r)) ? (r as Race) : null);
  const asAge = (a: string | null | undefined): string | null => (a && (!classes || classes.age?.includes(a)) ? a : null);
  const sorted = [...rows].sort((a, b) => {
    const t = new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime();
    return t !== 0 ? t : (a.id ?? 0) - (b.id ?? 0);
  });
  const out = new Map<number, Map<string, AnnotatorLabel>>();
  for (const r of sorted) {
    let byAnnotator = out.get(r.faceId);
    if (!byAnnotator) out.set(r.faceId, (byAnnotator = new Map()));
    byAnnotator.set(r.annotator, { annotator: r.annotator, gender: asGender(r.gender), race: asRace(r.race), age: asAge(r.age), notAFace: r.notAFace, at: new Date(r.createdAt).toISOString() });
  }
  for (const [faceId, byAnnotator] of out) {
    for (const [name, l] of byAnnotator) if (isEmptyLabel(l)) byAnnotator.delete(name);
    if (!byAnnotator.size) out.delete(faceId);
  }
  return out;
}

export type Vote<T> = { status: "none"; votes: 0 } | { status: "undecided"; votes: number; counts: Map<T, number> } | { status: "decided"; value: T; votes: number; counts: Map<T, number> };

/** Strict majority: a value chosen by more than half of the votes; otherwise undecided; no votes → none. */
export function majorityVote<T>(values: readonly T[]): Vote<T> {
  if (!values.length) return { status: "none", votes: 0 };
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  for (const [value, n] of counts) if (n * 2 > values.length) return { status: "decided", value, votes: values.length, counts };
  return { status: "undecided", votes: values.length, counts };
}

export interface Consensus {
  annotators: number;
  /** true when a strict majority of the annotators marked it "not a face / not a person" */
  notAFace: boolean;
  gender: Vote<Gender>;
  race: Vote<Race>;
  age: Vote<string>;
  /** annotators disagree on any attribute (or on whether it is a face) */
  disagreement: boolean;
}

/**
 * Per-face majority: first whether it is a face (every annotator votes), then gender and race among the annotators
 * who gave that attribute and did not mark it "not a face".
 */
export function consensus(labels: Iterable<AnnotatorLabel>): Consensus {
  const all = [...labels];
  const face = majorityVote(all.map((l) => l.notAFace));
  const onFace = all.filter((l) => !l.notAFace);
  const gender = majorityVote(onFace.map((l) => l.gender).filter((g): g is Gender => g !== null));
  const race = majorityVote(onFace.map((l) => l.race).filter((r): r is Race => r !== null));
  const age = majorityVote(onFace.map((l) => l.age).filter((a): a is string => a !== null));
  const distinct = (xs: unknown[]) => new Set(xs).size > 1;
  return {
    annotators: all.length,
    notAFace: face.status === "decided" && face.value === true,
    gender,
    race,
    age,
    disagreement: distinct(all.map((l) => l.notAFace)) || distinct(onFace.map((l) => l.gender).filter(Boolean)) || distinct(onFace.map((l) => l.race).filter(Boolean)) || distinct(onFace.map((l) => l.age).filter(Boolean)),
  };
}

export type LabelSource = "human" | "model" | "none";

/**
 * The label a face carries once review is taken into account: excluded when a majority says it is not a face (or
 * the detection was deleted); per attribute the human majority where there is one, the model's label otherwise.
 */
export function reviewedLabel(
  model: { gender: Gender | null; race: Race | null },
  c: Consensus | null,
): { excluded: boolean; gender: Gender | null; race: Race | null; genderSource: LabelSource; raceSource: LabelSource } {
  if (c?.notAFace) return { excluded: true, gender: null, race: null, genderSource: "human", raceSource: "human" };
  const pick = <T>(v: Vote<T> | undefined, fallback: T | null): [T | null, LabelSource] => (v?.status === "decided" ? [v.value, "human"] : fallback !== null ? [fallback, "model"] : [null, "none"]);
  const [gender, genderSource] = pick(c?.gender, model.gender);
  const [race, raceSource] = pick(c?.race, model.race);
  return { excluded: false, gender, race, genderSource, raceSource };
}
