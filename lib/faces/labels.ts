// FairFace's class lists and the 7 → 4 race mapping. Raw probabilities are stored as FairFace gives them; the
// mapping is applied at read time, so it can change without re-running the classifier.
import type { Gender, Race } from "../benchmark/labels";

export const FAIRFACE_RACES = ["White", "Black", "Latino_Hispanic", "East Asian", "Southeast Asian", "Indian", "Middle Eastern"] as const;
export const FAIRFACE_GENDERS = ["Male", "Female"] as const;
export const FAIRFACE_AGES = ["0-2", "3-9", "10-19", "20-29", "30-39", "40-49", "50-59", "60-69", "70+"] as const;

export const RACE_MAPPINGS = ["paper", "sum-asian"] as const;
export type RaceMapping = (typeof RACE_MAPPINGS)[number];

/**
 * 7 FairFace race probabilities → one of the benchmark's 4 races.
 * - paper (default, as in the paper's pipeline): the most probable of White, Black, Latino_Hispanic, East Asian,
 *   Southeast Asian, mapped to White / Black / Hispanic / Asian; Indian and Middle Eastern are ignored.
 * - sum-asian: East + Southeast Asian probabilities are added before the argmax (Indian, Middle Eastern ignored).
 */
export function mapRace(probs: readonly number[], mapping: RaceMapping = "paper"): Race {
  if (probs.length !== 7) throw new RangeError(`expected 7 race probabilities, got ${probs.length}`);
  const [white, black, latino, eastAsian, seAsian] = probs;
  const candidates: Array<[Race, number]> =
    mapping === "paper"
      ? [
          ["White", white],
          ["Black", black],
          ["Hispanic", latino],
          ["Asian", eastAsian],
          ["Asian", seAsian],
        ]
      : [
          ["White", white],
          ["Black", black],
          ["Hispanic", latino],
          ["Asian", eastAsian + seAsian],
        ];
  let best = candidates[0];
  for (const c of candidates) if (c[1] > best[1]) best = c;
  return best[0];
}

export function mapGender(probs: readonly number[]): Gender {
  if (probs.length !== 2) throw new RangeError(`expected 2 gender probabilities, got ${probs.length}`);
  return probs[1] > probs[0] ? "female" : "male";
}

/** A stored face's benchmark labels under a race mapping; null where the face has no classifier output. */
export function faceLabels(
  face: { raceProbsJson: string | null; genderProbsJson: string | null },
  mapping: RaceMapping = "paper",
): { gender: Gender | null; race: Race | null } {
  return {
    gender: face.genderProbsJson ? mapGender(JSON.parse(face.genderProbsJson) as number[]) : null,
    race: face.raceProbsJson ? mapRace(JSON.parse(face.raceProbsJson) as number[], mapping) : null,
  };
}

/**
 * The benchmark labels with confidences: the probability of the chosen gender, and of the chosen race under the
 * mapping (with sum-asian, Asian's probability is the sum it was chosen by). Null without classifier output.
 */
export function facePrediction(face: { raceProbsJson: string | null; genderProbsJson: string | null }, mapping: RaceMapping = "paper") {
  if (!face.raceProbsJson || !face.genderProbsJson) return null;
  const race7 = JSON.parse(face.raceProbsJson) as number[];
  const gender2 = JSON.parse(face.genderProbsJson) as number[];
  const { gender, race } = faceLabels(face, mapping);
  const raceConfidence =
    mapping === "sum-asian" && race === "Asian"
      ? race7[3] + race7[4]
      : race === "Asian"
        ? Math.max(race7[3], race7[4])
        : race7[["White", "Black", "Hispanic"].indexOf(race!)];
  return { gender: gender!, genderConfidence: Math.max(gender2[0], gender2[1]), race: race!, raceConfidence };
}
