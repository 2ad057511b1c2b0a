// The one place that knows the label sets. Everything else (DB, API, UI, metrics) imports from here.

export const GENDERS = ["male", "female"] as const;
export const RACES = ["Asian", "Black", "Hispanic", "White"] as const;
export const ATTRIBUTES = ["gender", "race"] as const;
export const LEVELS = ["highest", "lowest"] as const;
export const TESTS = ["objective", "subjective"] as const;
export const MODALITIES = ["llm", "t2i"] as const;
export const CONTEXTS = ["baseline", "representativeness", "attribution", "ingroup"] as const;
export const CATEGORIES = ["economic", "social", "health"] as const;
export const POLARITIES = ["favourable", "unfavourable"] as const;

export type Gender = (typeof GENDERS)[number];
export type Race = (typeof RACES)[number];
export type Attribute = (typeof ATTRIBUTES)[number];
export type Level = (typeof LEVELS)[number];
export type Test = (typeof TESTS)[number];
export type Modality = (typeof MODALITIES)[number];
export type Context = (typeof CONTEXTS)[number];
export type Label = Gender | Race;

/** Display names for the paper's column abbreviations (O, S-B, S-R, S-A, S-G). */
export const CONTEXT_LABELS: Record<Context, string> = {
  baseline: "Baseline",
  representativeness: "Representativeness bias",
  attribution: "Attribution error",
  ingroup: "In-group/out-group bias",
};

export function classesOf(attribute: Attribute): readonly Label[] {
  return attribute === "gender" ? GENDERS : RACES;
}

/** k in g_k: the number of classes of an attribute (2 gender, 4 race). */
export function classCount(attribute: Attribute): number {
  return classesOf(attribute).length;
}

/** Case-insensitive match of a label to its canonical spelling, or null when it is not a class of the attribute. */
export function canonicalLabel(attribute: Attribute, value: string): Label | null {
  const v = value.trim().toLowerCase();
  return classesOf(attribute).find((c) => c.toLowerCase() === v) ?? null;
}

/** Words used inside prompts ("a 34-year-old female individual", "of Hispanic descent"). */
export function displayLabel(label: Label): string {
  return label === "male" ? "Male" : label === "female" ? "Female" : label;
}
