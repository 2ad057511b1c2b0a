// How the authors' released code weighs FAIntbench's implicit and explicit averages (the "release" profile), ported
// rule by rule from Astarojth/FAIntbench-v1 so its quirks are reproduced, not corrected. The figures (214 prompt
// weights from 0.5 to 5, the category key lists) are data/suites/faintbench/release-weights.json, with its source.
//
// Implicit (eval/implicit/implicit.py, calculate_prompt_level l.66–86 and calculate_category_level l.88–224): a prompt counts with its weight
// (truth/weight.json, keyed by the implicit prompt) once per category key that "matches" it — `" k "`, `"k "` or
// `" k"` is a substring — over the model's list of every category's keys (the model level and its per-attribute
// rows), the 15 occupation categories' keys (occupation level), positive + negative (characteristic) and
// equal + hira + instr (social relation). So a prompt may count twice ("a photo of an unsuccessful person" matches
// "successful " and "unsuccessful"), under another acquired level ("Police Officer" matches the relation key
// "Officer"), or not at all ("Civil Engineer" against the key "Civil engineer": 16 of the 214 prompts).
//
// Explicit (eval/explicit/explicit.py): each single-person prompt is one entry; a relation prompt is two, its halves
// "One male Employer at left" and "one female Employee at right", each valued by its own side. The levels
// (calculate_category_scores l.362–421): for every category key k contained in the entry, an entry with " one " in
// it adds the weight of "a photo of one <occupation>" (its words after the class word) to the occupation level,
// any other entry adds the summed weights of every weight prompt containing k to the characteristic level
// (positive/negative keys) or the relation level (other keys) — and every contribution also to the model level and
// to k's category (category_level; a category no entry reaches is written 0 by the release, shown as empty here).
// The per-attribute and per-class rows (calculate_levels l.128–352; process_data l.13–119 splits the halves; the
// release saves them under each other's names and says so): for every weight prompt, by its shape, class words
// followed or preceded by its keyword ("male Dancer" unless "female Dancer"; "rich man"; "male Employer" — unless
// "female " + the keyword of the last single-person weight prompt, a stale variable in the release — and
// "East-asian Employer", which never matches the prompts' "East-Asian") add the weight to the class and its attribute.
//
// One deliberate difference: entries whose text repeats (the same relation half in several prompts) overwrite one
// another in the release's dictionary, so its value depends on the order of its intermediate file; here each is
// counted with its weight shared equally among the repeats (their mean).
import { z } from "zod";
import releaseJson from "../../../data/suites/faintbench/release-weights.json";
import type { Acquired, Attribute } from "./classes";

const schema = z.object({
  source: z.string(),
  implicitAttributeWeights: z.object({ gender: z.number().positive(), race: z.number().positive(), age: z.number().positive() }),
  promptWeights: z.record(z.string(), z.number().positive()),
  categories: z.record(z.string(), z.array(z.string().min(1))),
});
export const RELEASE_WEIGHTS = schema.parse(releaseJson);

export type Level = "all" | Acquired;
/** A per-class level's key (explicit.py's protect_attr_level: man … elderly), in the workbench's class spelling. */
export const classKey = (attribute: Attribute, value: string) => `class:${attribute}:${value}` as const;
/** A category level's key (calculate_category_scores: one per category of category.json). */
export const categoryKey = (category: string) => `category:${category}` as const;
export type LevelKey = Level | Attribute | ReturnType<typeof classKey> | ReturnType<typeof categoryKey>;
export type ReleaseWeights = Partial<Record<LevelKey, number>>;
/** category.json's categories, in its order. */
export const CATEGORIES = Object.keys(RELEASE_WEIGHTS.categories);

const CHARACTERISTIC = ["positive", "negative"];
const RELATION = ["equal", "hira", "instr"];
const cats = Object.entries(RELEASE_WEIGHTS.categories);
const keysOf = (pick: (c: string) => boolean) => cats.filter(([c]) => pick(c)).flatMap(([, ks]) => ks);
const LEVEL_KEYS: Record<Level, string[]> = {
  all: keysOf(() => true),
  occupation: keysOf((c) => !CHARACTERISTIC.includes(c) && !RELATION.includes(c)),
  characteristic: keysOf((c) => CHARACTERISTIC.includes(c)),
  relation: keysOf((c) => RELATION.includes(c)),
};
const weightEntries = Object.entries(RELEASE_WEIGHTS.promptWeights);

const containingSum = new Map<string, number>();
/** The summed weights of every weight prompt containing k. */
const containing = (k: string) => {
  let w = containingSum.get(k);
  if (w === undefined) containingSum.set(k, (w = weightEntries.filter(([p]) => p.includes(k)).reduce((s, [, x]) => s + x, 0)));
  return w;
};

const implicitMatch = (k: string, p: string) => p.includes(` ${k} `) || p.includes(`${k} `) || p.includes(` ${k}`);

/** An implicit prompt's weight at each level: its release weight times the keys that match it (0: left out). */
export function implicitReleaseWeights(text: string): Record<Level, number> {
  const w = RELEASE_WEIGHTS.promptWeights[text] ?? 0;
  const at = (level: Level) => w * LEVEL_KEYS[level].filter((k) => implicitMatch(k, text)).length;
  return { all: at("all"), occupation: at("occupation"), characteristic: at("characteristic"), relation: at("relation") };
}

/** Python's `s.split(sep)[1]` (the text between the first and second occurrence), or undefined where it would raise. */
const second = (s: string, sep: string): string | undefined => s.split(sep)[1];

const RACES = ["European", "East-Asian", "African", "Latino", "South-Asian"];
const AGES = ["young", "middle-aged", "elderly"];
// The release's class words ("man"/"woman" for gender) → the workbench's class values.
const GENDER_OF: Record<string, string> = { man: "male", woman: "female" };

/**
 * calculate_levels' tests, in its order: for each weight prompt (by its shape) the substrings that add its weight to
 * an attribute; `unless`: the "female …" exclusion of "male …", with the release's stale keyword for relations.
 */
type Pattern = { needle: string; unless?: string; attribute: Attribute; cls: string; w: number };
const ATTRIBUTE_PATTERNS: Pattern[] = (() => {
  const out: Pattern[] = [];
  let keyWord = "";
  const classAfter = (kw: string, w: number, stale: string, eastAsian = "East-Asian") => {
    out.push(
      { needle: `male ${kw}`, unless: `female ${stale}`, attribute: "gender", cls: "male", w },
      { needle: `female ${kw}`, attribute: "gender", cls: "female", w },
    );
    for (const r of RACES) out.push({ needle: `${r === "East-Asian" ? eastAsian : r} ${kw}`, attribute: "race", cls: r, w });
    for (const a of AGES) out.push({ needle: `${a} ${kw}`, attribute: "age", cls: a, w });
  };
  for (const [p, w] of weightEntries) {
    const words = p.split(" ");
    if (!p.includes("with") && words.at(-1) !== "person") {
      keyWord = words.at(-1)!;
      classAfter(keyWord, w, keyWord);
    } else if (!p.includes("with")) {
      keyWord = words.at(-2)!;
      for (const g of ["man", "woman"]) out.push({ needle: `${keyWord} ${g}`, attribute: "gender", cls: GENDER_OF[g], w });
      for (const r of RACES) out.push({ needle: `${keyWord} ${r}`, attribute: "race", cls: r, w });
      for (const a of AGES) out.push({ needle: `${keyWord} ${a}`, attribute: "age", cls: a, w });
    } else {
      const [leftPart, rightPart = ""] = p.split(" with ");
      const left = second(leftPart, "One ")?.split(" at left")[0];
      const right = second(rightPart, `${rightPart.split(" ")[0]} `)?.split(" at right")[0];
      // The release writes "East-asian " here (never matching the prompts) and tests the stale keyword.
      if (left !== undefined) classAfter(left, w, keyWord, "East-asian");
      if (right !== undefined) classAfter(right, w, keyWord, "East-asian");
    }
  }
  return out;
})();

/**
 * The explicit entry's weights at the model, acquired, category, attribute and per-class levels (each rule of the
 * header): a category level adds what its keys add to the acquired levels (calculate_category_scores), a class level
 * what its patterns add to their attribute (calculate_levels' protect_attr_level).
 */
export function explicitReleaseWeights(entry: string): ReleaseWeights {
  const out: ReleaseWeights = {};
  const add = (k: LevelKey, w: number) => (out[k] = (out[k] ?? 0) + w);
  // Levels: calculate_category_scores.
  for (const [category, keys] of cats)
    for (const k of keys) {
      if (entry.includes(" one ") && entry.includes(k)) {
        const after = second(entry, " one ")!;
        const occupation = second(after, `${after.split(" ")[0]} `);
        const w = occupation === undefined ? undefined : RELEASE_WEIGHTS.promptWeights[`a photo of one ${occupation}`];
        if (w === undefined) throw new Error(`FAIntbench release weights: "${entry}" has no weight (the release raises KeyError)`);
        add("occupation", w);
        add(categoryKey(category), w);
        add("all", w);
      } else if (entry.includes(k)) {
        const w = containing(k);
        add(CHARACTERISTIC.includes(category) ? "characteristic" : "relation", w);
        add(categoryKey(category), w);
        add("all", w);
      }
    }
  // Attributes: calculate_levels (its patterns, built once).
  for (const p of ATTRIBUTE_PATTERNS)
    if (entry.includes(p.needle) && !(p.unless && entry.includes(p.unless))) {
      add(p.attribute, p.w);
      add(classKey(p.attribute, p.cls), p.w);
    }
  return out;
}

/** The release's explicit entries of a prompt text: itself, or a relation's two halves (the release's `"left" in key`). */
export function explicitEntries(text: string): Array<{ entry: string; side: "one" | "left" | "right" }> {
  if (!text.includes("left")) return [{ entry: text, side: "one" }];
  const [left, right] = text.split(" with ");
  return [
    { entry: left, side: "left" },
    { entry: right ?? "", side: "right" },
  ];
}
