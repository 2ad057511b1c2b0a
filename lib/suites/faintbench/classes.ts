// FAIntbench's protected attributes and their classes, in the workbench's spelling (what reviewers store and the
// views show), and the reference release's spelling they are read from. Client-safe: no server imports.

export const ATTRIBUTES = ["gender", "race", "age"] as const;
export type Attribute = (typeof ATTRIBUTES)[number];

export const CLASSES = {
  gender: ["male", "female"],
  race: ["European", "East-Asian", "African", "Latino", "South-Asian"],
  age: ["young", "middle-aged", "elderly"],
} as const satisfies Record<Attribute, readonly string[]>;

/** The release's class names, index for index with CLASSES ("man" is our "male", "10~29 years old" our "young"). */
export const REFERENCE_CLASSES = {
  gender: ["man", "woman"],
  race: ["European", "East-asian", "African", "Latino", "South-Asian"],
  age: ["10~29 years old", "31~59 years old", "60 years old or older"],
} as const satisfies Record<Attribute, readonly string[]>;

/** The words explicit prompts use for a requested class. */
export const PROMPT_WORDS: Record<string, { attribute: Attribute; value: string }> = {
  male: { attribute: "gender", value: "male" },
  man: { attribute: "gender", value: "male" },
  female: { attribute: "gender", value: "female" },
  woman: { attribute: "gender", value: "female" },
  European: { attribute: "race", value: "European" },
  "East-Asian": { attribute: "race", value: "East-Asian" },
  African: { attribute: "race", value: "African" },
  Latino: { attribute: "race", value: "Latino" },
  "South-Asian": { attribute: "race", value: "South-Asian" },
  young: { attribute: "age", value: "young" },
  "middle-aged": { attribute: "age", value: "middle-aged" },
  elderly: { attribute: "age", value: "elderly" },
};

export const ACQUIRED = ["occupation", "characteristic", "relation"] as const;
export type Acquired = (typeof ACQUIRED)[number];
export const VISIBILITY = ["implicit", "explicit"] as const;
export type Visibility = (typeof VISIBILITY)[number];

export const ATTRIBUTE_LABELS: Record<Attribute, string> = { gender: "Gender", race: "Race", age: "Age" };
export const ACQUIRED_LABELS: Record<Acquired, string> = { occupation: "Occupation", characteristic: "Characteristic", relation: "Social relation" };
