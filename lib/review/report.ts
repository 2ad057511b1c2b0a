// The detector report (paper §5.1, Table 2): the face pipeline's errors against the human majority. Pure.
import { GENDERS, RACES, type Gender, type Race } from "../benchmark/labels";
import { mapGender, mapRace, RACE_MAPPINGS, type RaceMapping } from "../faces/labels";
import type { Consensus } from "./votes";

export interface ReportFace {
  source: string; // detector | manual
  deleted: boolean;
  genderProbs: number[] | null;
  raceProbs: number[] | null;
  consensus: Consensus | null;
}

export interface AttributeReport<T extends string> {
  classes: readonly T[];
  /** faces with both a human majority and a model label for the attribute */
  n: number;
  errors: number;
  /** errors / n, in [0, 1]; null when n = 0 */
  errorRate: number | null;
  /** confusion[human][model] */
  confusion: Record<T, Record<T, number>>;
  /** reviewed faces whose annotators gave no strict majority for the attribute */
  undecided: number;
}

export interface DetectorReport {
  /** faces with at least one annotator's label */
  reviewedFaces: number;
  gender: AttributeReport<Gender>;
  race: Record<RaceMapping, AttributeReport<Race>>;
  detection: {
    /** detector faces that a reviewer looked at (labelled or deleted) */
    detectorFaces: number;
    /** detector faces deleted, or marked "not a face / not a person" by a majority */
    falsePositives: number;
    /** faces a reviewer had to draw by hand */
    missed: number;
  };
}

function emptyMatrix<T extends string>(classes: readonly T[]): Record<T, Record<T, number>> {
  return Object.fromEntries(classes.map((h) => [h, Object.fromEntries(classes.map((m) => [m, 0]))])) as Record<T, Record<T, number>>;
}

function attributeReport<T extends string>(classes: readonly T[], pairs: Array<{ human: T | null; model: T | null; reviewed: boolean }>): AttributeReport<T> {
  const confusion = emptyMatrix(classes);
  let n = 0;
  let errors = 0;
  let undecided = 0;
  for (const p of pairs) {
    if (!p.reviewed) continue;
    if (p.human === null) {
      undecided++;
      continue;
    }
    // A label outside these classes (a face of a suite reviewed in other classes) is not compared here.
    if (p.model === null || !classes.includes(p.human) || !classes.includes(p.model)) continue;
    n++;
    if (p.human !== p.model) errors++;
    confusion[p.human][p.model]++;
  }
  return { classes, n, errors, errorRate: n ? errors / n : null, confusion, undecided };
}

export function detectorReport(faces: readonly ReportFace[]): DetectorReport {
  // Faces that are faces by the human majority, with their human labels, compared with the classifier.
  const reviewed = faces.filter((f) => !f.deleted && f.consensus && f.consensus.annotators > 0 && !f.consensus.notAFace);
  const humanGender = (f: ReportFace) => (f.consensus?.gender.status === "decided" ? f.consensus.gender.value : null);
  const humanRace = (f: ReportFace) => (f.consensus?.race.status === "decided" ? f.consensus.race.value : null);
  const gender = attributeReport(
    GENDERS,
    reviewed.map((f) => ({ human: humanGender(f), model: f.genderProbs ? mapGender(f.genderProbs) : null, reviewed: true })),
  );
  const race = Object.fromEntries(
    RACE_MAPPINGS.map((m) => [
      m,
      attributeReport(
        RACES,
        reviewed.map((f) => ({ human: humanRace(f), model: f.raceProbs ? mapRace(f.raceProbs, m) : null, reviewed: true })),
      ),
    ]),
  ) as Record<RaceMapping, AttributeReport<Race>>;
  const detector = faces.filter((f) => f.source === "detector" && (f.deleted || (f.consensus?.annotators ?? 0) > 0));
  return {
    reviewedFaces: faces.filter((f) => (f.consensus?.annotators ?? 0) > 0).length,
    gender,
    race,
    detection: {
      detectorFaces: detector.length,
      falsePositives: detector.filter((f) => f.deleted || f.consensus?.notAFace).length,
      missed: faces.filter((f) => f.source === "manual" && !f.deleted).length,
    },
  };
}
