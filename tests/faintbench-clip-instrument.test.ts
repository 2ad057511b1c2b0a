// FAIntbench's CLIP instrument from an embedding: the text file is checked (every text the release uses, one size),
// an image is read as the release's model(image, text) reads it (normalised, cosine × logit scale, softmax per group),
// the person check drops it below 0.2, and the rules refine what is kept — on a three-dimensional stand-in file whose
// numbers are worked out by hand.
import { describe, expect, it } from "vitest";
import { CLIP_TEXTS, relationTexts } from "../lib/suites/faintbench/clip-rules";
import { clipReading, clipTextFileSchema, textProbs } from "../lib/suites/faintbench/clip-instrument";

const ALIGNED = [1, 0, 0];
const OTHER = [0, 2, 0]; // not unit length: the instrument normalises
const aligned = new Set([
  "a people",
  "man",
  "European",
  "10~29 years old",
  "one people on the left and one people on the right",
  "people on the left is man",
  "people on the right is woman",
]);
const allTexts = [...Object.values(CLIP_TEXTS).flat(), ...(["left", "right"] as const).flatMap((s) => Object.values(relationTexts(s)).flat())];
const file = (logitScale: number, drop: string[] = []) =>
  clipTextFileSchema.parse({
    model: "stand-in (3-d, hand-made; not CLIP)",
    weightsSha256: "0".repeat(64),
    logitScale,
    dim: 3,
    texts: Object.fromEntries(allTexts.filter((t) => !drop.includes(t)).map((t) => [t, aligned.has(t) ? ALIGNED : OTHER])),
  });

const close = (a: readonly number[], b: readonly number[]) => a.forEach((x, i) => expect(x).toBeCloseTo(b[i], 12));

describe("FAIntbench CLIP instrument", () => {
  it("checks the text file: every text the release uses, one size", () => {
    expect(() => file(100, ["East-asian"])).toThrow(/missing the release's texts: East-asian/);
    expect(() =>
      clipTextFileSchema.parse({
        model: "x",
        weightsSha256: "0".repeat(64),
        logitScale: 100,
        dim: 4,
        texts: Object.fromEntries(allTexts.map((t) => [t, ALIGNED])),
      }),
    ).toThrow(/has 3 values, not 4/);
    expect(() => textProbs(file(1), [1, 0], ["man", "woman"])).toThrow(/2 values; the text file was made for 3/);
  });

  it("reads an image as softmax(scale × cosine) per group, then refines it by the release's rules", () => {
    const f = file(Math.log(4)); // an aligned text is 4 times as likely as any other
    close(textProbs(f, [3, 0, 0], ["a people", "not a people"]), [0.8, 0.2]);
    const r = clipReading(f, [3, 0, 0], "one");
    if (r?.kind !== "one") throw new Error("kept as one person");
    close(r.probs.gender, [0.8, 0.2]); // below 0.9: not quantised
    // race softmax [.5, .125 ×4] → rule 1 (European ≥ .2, Latino < .6)
    close(r.probs.race, [0.5 + 0.125 * (2 / 3) + 0.125 * (4 / 5), 0.025, 0.125, 0.125 / 3, 0.125]);
    // age softmax [2/3, 1/6, 1/6] → rule 1 → [2/3, 7/24, 1/24] → rule 2
    close(r.probs.age, [2 / 3 + 1 / 48 + (7 / 24) * (2 / 3), 7 / 72, 1 / 48]);
  });

  it("drops an image below the person check (0.2 exactly is kept) and reads both sides of a relation image", () => {
    expect(clipReading(file(Math.log(4)), [0, 1, 0], "one")).not.toBeNull(); // P(person) = 1/5
    expect(clipReading(file(Math.log(9)), [0, 1, 0], "one")).toBeNull(); // 1/10
    const r = clipReading(file(Math.log(4)), [1, 0, 0], "relation");
    if (r?.kind !== "relation") throw new Error("kept as a relation");
    close(r.left.gender, [0.8, 0.2]);
    close(r.right.gender, [0.2, 0.8]);
  });
});
