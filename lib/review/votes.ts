// Annotators' labels for faces: the current label of each annotator, majority votes and the label a face carries
// once human review is taken into account. Pure: the database layer passes rows in.
import { GENDERS, RACES, type Gender, type Race } from "../benchmark/labels";

/** What to select of an annotation row (Prisma) so it reads as an AnnotationRow. */
export const ANNOTATION_ROW_SELECT = {
  id: true,
  faceId: true,
  annotator: true,
  notAFace: true,
  createdAt: true,
  values: { select: { attribute: true, value: true } },
} as const;

/** One stored annotation row (rows are appended; the newest per face and annotator is that annotator's label). */
export interface AnnotationRow {
  faceId: number;
  annotator: string;
  /** a class per attribute the label sets (AnnotationValue rows: the attributes are a suite's data) */
  values: ReadonlyArray<{ attribute: string; value: string }>;
  notAFace: boolean;
  createdAt: Date | string;
  id?: number;
}

/**
 * An annotator's current label for a face: `values` per attribute (any a suite declares); gender, race and age are
 * read from it for the code that scores them. A row with nothing set is a withdrawn label (an undo to "no label").
 */
export interface AnnotatorLabel {
  annotator: string;
  values: Record<string, string>;
  gender: Gender | null;
  race: Race | null;
  age: string | null;
  notAFace: boolean;
  at: string;
}

/** A label from its values (the one place gender, race and age are read out of them). */
export function annotatorLabel(annotator: string, values: Record<string, string>, notAFace: boolean, at: string): AnnotatorLabel {
  return {
    annotator,
    values,
    gender: (values.gender ?? null) as Gender | null,
    race: (values.race ?? null) as Race | null,
    age: values.age ?? null,
    notAFace,
    at,
  };
}

/**
 * The classes a label may take, per attribute: FACT-OR-FAIR's by default; a suite with other classes (FairFace's 7
 * races, age groups, a skin-tone scale) passes its own. An attribute not listed takes no votes.
 */
export type LabelClasses = Readonly<Record<string, readonly string[]>>;
const FOF_LABEL_CLASSES: LabelClasses = { gender: GENDERS, race: RACES };

function isEmptyLabel(l: { values: Record<string, string>; notAFace: boolean }): boolean {
  return !l.notAFace && Object.keys(l.values).length === 0;
}

/**
 * The newest row per (face, annotator), ordered by time and then id (rows written in the same millisecond keep
 * their insertion order). Withdrawn labels are dropped. Returns face id → annotator → label.
 */
export function currentLabels(
  rows: readonly AnnotationRow[],
  classes: LabelClasses | null = FOF_LABEL_CLASSES,
  /** annotators whose votes an admin left out of every consensus (AnnotatorExclusion): their rows are not read */
  excluded?: ReadonlySet<string>,
): Map<number, Map<string, AnnotatorLabel>> {
  // Values outside the classes (another suite's label, a stale spelling) are not votes. `null`: every stored value
  // counts — for the review pages, which show faces of several suites (each label was checked against its face's
  // suite when it was written).
  const sorted = (excluded?.size ? rows.filter((r) => !excluded.has(r.annotator)) : [...rows]).sort((a, b) => {
    const t = new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime();
    return t !== 0 ? t : (a.id ?? 0) - (b.id ?? 0);
  });
  const out = new Map<number, Map<string, AnnotatorLabel>>();
  for (const r of sorted) {
    let byAnnotator = out.get(r.faceId);
    if (!byAnnotator) out.set(r.faceId, (byAnnotator = new Map()));
    const values: Record<string, string> = {};
    for (const v of r.values) if (!classes || classes[v.attribute]?.includes(v.value)) values[v.attribute] = v.value;
    byAnnotator.set(r.annotator, annotatorLabel(r.annotator, values, r.notAFace, new Date(r.createdAt).toISOString()));
  }
  for (const [faceId, byAnnotator] of out) {
    for (const [name, l] of byAnnotator) if (isEmptyLabel(l)) byAnnotator.delete(name);
    if (!byAnnotator.size) out.delete(faceId);
  }
  return out;
}

export type Vote<T> =
  | { status: "none"; votes: 0 }
  | { status: "undecided"; votes: number; counts: Map<T, number> }
  | { status: "decided"; value: T; votes: number; counts: Map<T, number> };

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
  /** the majority per attribute any annotator set (a suite's attributes, whatever they are) */
  votes: Record<string, Vote<string>>;
  gender: Vote<Gender>;
  race: Vote<Race>;
  age: Vote<string>;
  /** annotators disagree on any attribute (or on whether it is a face) */
  disagreement: boolean;
}

/**
 * Per-face majority: first whether it is a face (every annotator votes), then per attribute among the annotators
 * who gave that attribute and did not mark it "not a face".
 */
export function consensus(labels: Iterable<AnnotatorLabel>): Consensus {
  const all = [...labels];
  const face = majorityVote(all.map((l) => l.notAFace));
  const onFace = all.filter((l) => !l.notAFace);
  const attributes = [...new Set(onFace.flatMap((l) => Object.keys(l.values)))].sort();
  const votes: Record<string, Vote<string>> = {};
  for (const a of attributes) votes[a] = majorityVote(onFace.map((l) => l.values[a]).filter((v): v is string => v !== undefined));
  const distinct = (xs: unknown[]) => new Set(xs).size > 1;
  const none = { status: "none", votes: 0 } as const;
  return {
    annotators: all.length,
    notAFace: face.status === "decided" && face.value === true,
    votes,
    gender: (votes.gender ?? none) as Vote<Gender>,
    race: (votes.race ?? none) as Vote<Race>,
    age: votes.age ?? none,
    disagreement: distinct(all.map((l) => l.notAFace)) || attributes.some((a) => distinct(onFace.map((l) => l.values[a]).filter(Boolean))),
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
  const pick = <T>(v: Vote<T> | undefined, fallback: T | null): [T | null, LabelSource] =>
    v?.status === "decided" ? [v.value, "human"] : fallback !== null ? [fallback, "model"] : [null, "none"];
  const [gender, genderSource] = pick(c?.gender, model.gender);
  const [race, raceSource] = pick(c?.race, model.race);
  return { excluded: false, gender, race, genderSource, raceSource };
}
