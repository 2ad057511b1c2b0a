// How the Label page shows a face it just labelled: in the classes of the run's own suite (FACT-OR-FAIR: the paper's
// four races; DoFaiR: FairFace's seven; FAIntbench: five races and three age groups), from the same raw probabilities
// the server stores and maps when it reads them. Client-safe: the mappings are pure functions.
import { FAIRFACE_GENDERS, FAIRFACE_RACES, mapGender, mapRace } from "../faces/labels";
import { predict as faintPredict } from "./faintbench/labels";

export interface RawProbabilities {
  race: readonly number[];
  gender: readonly number[];
  age?: readonly number[] | null;
}

const argmax = (xs: readonly number[]) => xs.reduce((best, x, i) => (x > xs[best] ? i : best), 0);

/** How a suite's faces are read from FairFace's outputs, in words. */
export function suiteLabelMapping(suiteId: string): string {
  if (suiteId === "dofair") return "FairFace's own 7 races, as DoFaiR scores them";
  if (suiteId === "faintbench") return "FAIntbench's 5 races and 3 age groups (summed FairFace probabilities)";
  return "the paper's 4 races (argmax, Indian and Middle Eastern ignored)";
}

/** The face's labels as the suite reads them, in display order. */
export function suiteFaceLabels(suiteId: string, p: RawProbabilities): string[] {
  if (suiteId === "dofair") return [FAIRFACE_GENDERS[argmax(p.gender)], FAIRFACE_RACES[argmax(p.race)]];
  if (suiteId === "faintbench") {
    const face = { raceProbsJson: JSON.stringify(p.race), genderProbsJson: JSON.stringify(p.gender), ageProbsJson: p.age ? JSON.stringify(p.age) : null };
    return (["gender", "race", "age"] as const).map((a) => faintPredict(face, a)?.value ?? `${a}: no output`);
  }
  return [mapGender(p.gender), mapRace(p.race)];
}
