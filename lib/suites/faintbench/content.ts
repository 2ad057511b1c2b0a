// FAIntbench content: the release's 2,654 prompts (data/suites/faintbench/reference.json, numbers re-keyed by the
// task's source documents), each read into its coordinates — implicit or explicit, occupation / characteristic /
// relation, the persons it asks for (one, or two at left and right) — with the ground-truth shares (implicit) or
// the requested class (explicit) per person, the 36 η pairs resolved to prompts, and the weights of the averages.
//
// Release anomalies (docs/user-guide.md "FAIntbench"): a ground-truth vector with a negative share (Fashion Designer's elderly
// share is −0.0255) or one that does not sum to 1 is repaired by one rule — negative shares become 0, then the
// vector is divided by its sum. Cosine similarity ignores scale, so only the clamping changes a score; the repaired
// vector is what the Benchmark page shows, with the release's numbers beside it.
import { createHash } from "node:crypto";
import { z } from "zod";
import referenceJson from "../../../data/suites/faintbench/reference.json";
import weightsJson from "../../../data/suites/faintbench/weights.json";
import { ATTRIBUTES, PROMPT_WORDS, REFERENCE_CLASSES, type Acquired, type Attribute, type Visibility } from "./classes";

const shares = (classes: readonly string[]) =>
  z
    .record(z.string(), z.number().finite())
    .refine((r) => classes.every((c) => c in r) && Object.keys(r).length === classes.length, `shares must name exactly ${classes.join(", ")}`);
const truthSchema = z.object({ gender: shares(REFERENCE_CLASSES.gender), race: shares(REFERENCE_CLASSES.race), age: shares(REFERENCE_CLASSES.age) });

const referenceSchema = z.object({
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  source: z.string(),
  promptTemplates: z.object({ styleSuffixSinglePerson: z.string(), styleSuffixRelation: z.string() }).passthrough(),
  occupations: z.record(z.string(), truthSchema),
  characteristics: z.record(z.string(), truthSchema),
  relations: z.record(z.string(), z.object({ left: truthSchema, right: truthSchema })),
  etaPairs: z.array(z.tuple([z.string(), z.string()])).min(1),
  prompts: z
    .array(
      z.object({ set: z.enum(["implicit", "explicit_oc", "explicit_char", "explicit_relation"]), file: z.string().min(1), prompt: z.string().min(5).max(300) }),
    )
    .min(1),
});

const weightMap = z.object({ gender: z.number().positive(), race: z.number().positive(), age: z.number().positive() });
const weightsSchema = z.object({
  note: z.string(),
  attribute: z.object({ implicit: weightMap, explicit: weightMap, eta: weightMap }),
  prompt: z.number().positive(),
  subAttribute: z.number().positive(),
});
type Weights = z.infer<typeof weightsSchema>;

export type Side = "one" | "left" | "right";
/** Ground truth of one person: shares in CLASSES order, repaired; `raw` as released when the repair changed it. */
type Truth = Record<Attribute, number[]>;

interface Person {
  side: Side;
  /** implicit prompts: the demographic shares */
  truth?: Truth;
  /** the release's vectors where the repair rule changed them */
  rawTruth?: Partial<Truth>;
  /** explicit prompts: the class the prompt asks for */
  requested?: { attribute: Attribute; value: string };
}

export interface FaintPrompt {
  id: string;
  visibility: Visibility;
  acquired: Acquired;
  /** the occupation, characteristic or relation (the implicit relation prompt) it is about */
  item: string;
  /** the release's prompt file */
  file: string;
  /** identity prompt as released; `prompt` adds the style suffix and is what a model receives */
  text: string;
  prompt: string;
  persons: Person[];
}

interface EtaPair {
  /** advantaged and disadvantaged person: a prompt id and the side within it */
  advantaged: { promptId: string; side: Side };
  disadvantaged: { promptId: string; side: Side };
  acquired: Acquired;
  label: string;
}

export interface FaintContent {
  version: string;
  sha256: string;
  source: string;
  prompts: FaintPrompt[];
  etaPairs: EtaPair[];
  weights: Weights;
}

/** The anomaly rule: negative shares → 0, then divided by the sum (a vector of zeros stays zeros). */
export function repairShares(v: readonly number[]): number[] {
  const clamped = v.map((x) => (x < 0 ? 0 : x));
  const sum = clamped.reduce((a, b) => a + b, 0);
  return sum > 0 ? clamped.map((x) => x / sum) : clamped;
}

function readTruth(t: z.infer<typeof truthSchema>): Pick<Person, "truth" | "rawTruth"> {
  const truth = {} as Truth;
  const rawTruth: Partial<Truth> = {};
  for (const a of ATTRIBUTES) {
    const raw = REFERENCE_CLASSES[a].map((c) => (t[a] as Record<string, number>)[c]);
    truth[a] = repairShares(raw);
    if (truth[a].some((x, i) => Math.abs(x - raw[i]) > 1e-12)) rawTruth[a] = raw;
  }
  return Object.keys(rawTruth).length ? { truth, rawTruth } : { truth };
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
const WORDS = Object.keys(PROMPT_WORDS).sort((a, b) => b.length - a.length);
const wordRe = new RegExp(`^(${WORDS.map((w) => w.replace(/-/g, "\\-")).join("|")}) `);

/** "East-Asian Dancer" → the requested class and "Dancer". */
function takeWord(s: string): { requested: { attribute: Attribute; value: string }; rest: string } {
  const m = wordRe.exec(s);
  if (!m) throw new Error(`no protected-attribute word at the start of "${s}"`);
  return { requested: PROMPT_WORDS[m[1]], rest: s.slice(m[0].length) };
}

const RELATION_RE = /^One (.+) at left with (?:one|another) (.+) at right$/;

function readPrompt(p: z.infer<typeof referenceSchema>["prompts"][number], ref: z.infer<typeof referenceSchema>): Omit<FaintPrompt, "id" | "prompt"> {
  const base = { file: p.file, text: p.prompt };
  // Parsed with runs of spaces collapsed (the release has "One female  Leader …"); sent as released.
  const text = p.prompt.replace(/\s+/g, " ").trim();
  const occ = /^a photo of one (.+)$/.exec(text);
  const chr = /^a photo of an? (\S+) (.+)$/.exec(text);
  const rel = RELATION_RE.exec(text);
  if (p.set === "implicit") {
    if (rel) {
      const t = ref.relations[p.prompt];
      if (!t) throw new Error(`relation "${p.prompt}" has no ground truth`);
      return {
        ...base,
        visibility: "implicit",
        acquired: "relation",
        item: p.prompt,
        persons: [
          { side: "left", ...readTruth(t.left) },
          { side: "right", ...readTruth(t.right) },
        ],
      };
    }
    if (occ && ref.occupations[occ[1]])
      return { ...base, visibility: "implicit", acquired: "occupation", item: occ[1], persons: [{ side: "one", ...readTruth(ref.occupations[occ[1]]) }] };
    if (chr && chr[2] === "person" && ref.characteristics[chr[1]])
      return {
        ...base,
        visibility: "implicit",
        acquired: "characteristic",
        item: chr[1],
        persons: [{ side: "one", ...readTruth(ref.characteristics[chr[1]]) }],
      };
    throw new Error(`implicit prompt "${p.prompt}" names no known occupation, characteristic or relation`);
  }
  if (p.set === "explicit_oc") {
    if (!occ) throw new Error(`"${p.prompt}" is not an occupation prompt`);
    const { requested, rest } = takeWord(occ[1]);
    if (!ref.occupations[rest]) throw new Error(`"${p.prompt}": unknown occupation "${rest}"`);
    return { ...base, visibility: "explicit", acquired: "occupation", item: rest, persons: [{ side: "one", requested }] };
  }
  if (p.set === "explicit_char") {
    if (!chr || !ref.characteristics[chr[1]]) throw new Error(`"${p.prompt}" is not a characteristic prompt`);
    const requested = chr[2] === "man" || chr[2] === "woman" ? PROMPT_WORDS[chr[2]] : takeWord(chr[2].replace(/ person$/, "") + " ").requested;
    return { ...base, visibility: "explicit", acquired: "characteristic", item: chr[1], persons: [{ side: "one", requested }] };
  }
  if (!rel) throw new Error(`"${p.prompt}" is not a relation prompt`);
  const left = takeWord(rel[1]);
  const right = takeWord(rel[2]);
  const item = Object.keys(ref.relations).find((k) => RELATION_RE.exec(k)?.[1] === left.rest && RELATION_RE.exec(k)?.[2] === right.rest);
  if (!item) throw new Error(`"${p.prompt}": no implicit relation "${left.rest} … ${right.rest}"`);
  if (left.requested.attribute !== right.requested.attribute) throw new Error(`"${p.prompt}" asks for different attributes at left and right`);
  return {
    ...base,
    visibility: "explicit",
    acquired: "relation",
    item,
    persons: [
      { side: "left", requested: left.requested },
      { side: "right", requested: right.requested },
    ],
  };
}

/** An η pair's two names → the implicit prompts (and sides) they stand for; names match case-insensitively. */
function resolvePair([adv, dis]: [string, string], implicit: FaintPrompt[]): EtaPair {
  const find = (name: string, acquired: Acquired) => implicit.find((p) => p.acquired === acquired && p.item.toLowerCase() === name.toLowerCase());
  if (adv.endsWith(" at left") && dis.endsWith(" at right")) {
    const l = adv.slice(0, -" at left".length);
    const r = dis.slice(0, -" at right".length);
    const p = implicit.find((x) => x.acquired === "relation" && RELATION_RE.exec(x.item)?.[1] === l && RELATION_RE.exec(x.item)?.[2] === r);
    if (!p) throw new Error(`η pair "${adv}" / "${dis}": no such relation`);
    return { advantaged: { promptId: p.id, side: "left" }, disadvantaged: { promptId: p.id, side: "right" }, acquired: "relation", label: `${l} / ${r}` };
  }
  for (const acquired of ["characteristic", "occupation"] as const) {
    const a = find(adv, acquired);
    const d = find(dis, acquired);
    if (a && d)
      return { advantaged: { promptId: a.id, side: "one" }, disadvantaged: { promptId: d.id, side: "one" }, acquired, label: `${a.item} / ${d.item}` };
  }
  throw new Error(`η pair "${adv}" / "${dis}": not two implicit prompts`);
}

/** Validates the reference and weights and reads every prompt. Throws on anything it cannot place. */
export function buildContent(input: unknown, weightsInput: unknown = weightsJson): FaintContent {
  const ref = referenceSchema.parse(input);
  const weights = weightsSchema.parse(weightsInput);
  const prompts = ref.prompts.map((p): FaintPrompt => {
    const read = readPrompt(p, ref);
    const suffix = read.acquired === "relation" ? ref.promptTemplates.styleSuffixRelation : ref.promptTemplates.styleSuffixSinglePerson;
    return {
      id: `${read.visibility === "implicit" ? "i" : "e"}-${slug(p.prompt.trim().replace(/^a photo of (one|an?) /, ""))}`,
      ...read,
      prompt: p.prompt + suffix,
    };
  });
  if (new Set(prompts.map((p) => p.id)).size !== prompts.length) throw new Error("prompt ids repeat");
  const implicit = prompts.filter((p) => p.visibility === "implicit");
  const etaPairs = ref.etaPairs.map((pair) => resolvePair(pair, implicit));
  const sha256 = createHash("sha256")
    .update(JSON.stringify({ version: ref.version, prompts, etaPairs, weights }))
    .digest("hex");
  return { version: `faintbench-${ref.version}`, sha256, source: ref.source, prompts, etaPairs, weights };
}

let today: FaintContent | null = null;
export function currentContent(): FaintContent {
  return (today ??= buildContent(referenceJson));
}

export function parsePinned(json: string): FaintContent {
  const c = JSON.parse(json) as FaintContent;
  if (!c || !Array.isArray(c.prompts) || !Array.isArray(c.etaPairs) || !c.weights || typeof c.sha256 !== "string")
    throw new Error("unreadable FAIntbench content");
  return c;
}
