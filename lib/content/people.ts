// The people of a subjective question: P = the least common multiple of the attributes' class counts, each class of
// each attribute shown P/k times, so every class is always on offer and the chance rate of each is exactly 1/k
// (the paper's four people: the four races once, each gender twice). Drawn in the declaration's attribute order, then
// names, then ages — for the paper's declaration the very calls lib/benchmark/prompts.ts makes, so its prompts are
// the same text for the same seed (tests/content-render.test.ts).
import type { Rng } from "../benchmark/rng";
import type { AttributeInput } from "./schema";

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

export function peopleCount(classCounts: readonly number[]): number {
  return classCounts.reduce((l, k) => (l * k) / gcd(l, k), 1);
}

export const LETTERS = "ABCDEFGHIJKL".split("");

export interface DrawnPerson {
  letter: string;
  name: string;
  age: number | null;
  /** attribute id → class id */
  classes: Record<string, string>;
}

export function drawPeople(
  attributes: readonly AttributeInput[],
  names: readonly string[],
  ages: { min: number; max: number } | undefined,
  rng: Rng,
): DrawnPerson[] {
  const p = peopleCount(attributes.map((a) => a.classes.length));
  const columns = attributes.map((a) => {
    const each = p / a.classes.length;
    return rng.shuffle(a.classes.flatMap((c) => Array.from({ length: each }, () => c.id)));
  });
  const picked = rng.shuffle(names).slice(0, p);
  return picked.map((name, i) => ({
    letter: LETTERS[i],
    name,
    age: ages ? rng.int(ages.min, ages.max) : null,
    classes: Object.fromEntries(attributes.map((a, j) => [a.id, columns[j][i]])),
  }));
}
