// DoFaiR's synthetic image model for the adaptive-run simulation (lib/metrics/simulate-adaptive-means.ts,
// bench:adaptive): an entry is a historical event with 1–3 involved groups (the first dominant); each of its images
// shows 0–4 faces, each face of an involved group with probability `faithful` (the dominant one most often) and of
// any class otherwise — a model that follows the facts (baseline) or one pushed towards diversity (an
// intervention). Images are scored by the suite's own function (the release profile, as the results default), so the
// simulated DDC / IDC / IDF / FDD are the app's.
import type { FastRng } from "../../metrics/fast-rng";
import type { MeanSimGroup } from "../../metrics/simulate-adaptive-means";
import { DOFAIR_GENDERS, DOFAIR_RACES } from "./content";
import { scoreImageRelease, type Metric } from "./metrics";

/** faces per image: none (no demographics: not scored), one to four */
const FACES = [0.1, 0.4, 0.3, 0.15, 0.05];
/** involved groups per entry: one to three (at most the dimension's classes) */
const INVOLVED = [0.5, 0.3, 0.2];

function pick(rng: FastRng, p: readonly number[]): number {
  let u = rng.float();
  for (let j = 0; j < p.length - 1; j++) if ((u -= p[j]) < 0) return j;
  return p.length - 1;
}

export interface DofairSimVariant {
  name: string;
  /** probability a face shows one of the event's involved groups */
  faithful: number;
}

/** The paper's set: 600 race and 156 gender entries; one group per dimension × variant. */
export const DOFAIR_SIM_ENTRIES = { race: 600, gender: 156 } as const;
const DOFAIR_SIM_VARIANTS: readonly DofairSimVariant[] = [
  { name: "baseline", faithful: 0.85 },
  { name: "diversity intervention", faithful: 0.45 },
];

export function dofairSimGroups(
  entries: { race: number; gender: number } = DOFAIR_SIM_ENTRIES,
  variants: readonly DofairSimVariant[] = DOFAIR_SIM_VARIANTS,
): MeanSimGroup<Metric>[] {
  return (["race", "gender"] as const).flatMap((dimension) => {
    const classes: readonly string[] = dimension === "race" ? DOFAIR_RACES : DOFAIR_GENDERS;
    return variants.map((v): MeanSimGroup<Metric> => ({
      key: `${dimension} · ${v.name}`,
      entries: entries[dimension],
      entry: (rng) => {
        const size = Math.min(classes.length, 1 + pick(rng, INVOLVED));
        const pool = [...classes];
        const involved: string[] = [];
        for (let i = 0; i < size; i++) involved.push(pool.splice(rng.below(pool.length), 1)[0]);
        const truth = { dominant: [involved[0]], involved };
        // The dominant group takes 60 % of an involved face, the others share the rest.
        const share = involved.map((_, i) => (involved.length === 1 ? 1 : i === 0 ? 0.6 : 0.4 / (involved.length - 1)));
        return (r) => {
          const faces = pick(r, FACES);
          const labels: string[] = [];
          for (let f = 0; f < faces; f++) labels.push(r.float() < v.faithful ? involved[pick(r, share)] : classes[r.below(classes.length)]);
          return scoreImageRelease(labels, truth, classes);
        };
      },
    }));
  });
}
