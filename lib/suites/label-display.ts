// Applying a suite's LabelDisplay (lib/suites/types.ts) to FairFace's raw probabilities: the Label page shows each
// face in its own suite's classes without knowing any suite. Client-safe, pure.
import type { LabelDisplay } from "./types";
import { FAIRFACE_GENDERS, FAIRFACE_RACES } from "../faces/labels";

export interface RawProbabilities {
  race: readonly number[];
  gender: readonly number[];
  age?: readonly number[] | null;
}

/** The face's labels, one per attribute of the display, in its order ("?" where the head is missing or mismatched). */
export function applyLabelDisplay(display: LabelDisplay, p: RawProbabilities): string[] {
  return display.attributes.map((a) => {
    const probs = p[a.from];
    if (!probs || !probs.length) return "?";
    const target = (i: number) => (a.map ? a.map[i] : i);
    if (a.rule === "argmax") {
      let best = -1;
      for (let i = 0; i < probs.length; i++) if ((target(i) ?? -1) >= 0 && (best < 0 || probs[i] > probs[best])) best = i;
      return best < 0 ? "?" : (a.classes[target(best)] ?? "?");
    }
    const sums = new Array<number>(a.classes.length).fill(0);
    probs.forEach((x, i) => {
      const t = target(i);
      if (t !== undefined && t >= 0 && t < sums.length) sums[t] += x;
    });
    let top = 0;
    for (let i = 1; i < sums.length; i++) if (sums[i] > sums[top]) top = i;
    return a.classes[top];
  });
}

/** The display of a suite that declares none: FairFace's own classes, most probable first. */
export const FAIRFACE_DISPLAY: LabelDisplay = {
  mapping: "FairFace's own classes",
  attributes: [
    { from: "gender", classes: FAIRFACE_GENDERS, rule: "argmax" },
    { from: "race", classes: FAIRFACE_RACES, rule: "argmax" },
  ],
};
