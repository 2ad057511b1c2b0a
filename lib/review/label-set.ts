// The label attributes a reviewer sets on a face, per suite: which classes, which key for each. Client-safe: the
// review pages receive these as data from the server (a suite declares them in its folder), so no page names a suite.

/**
 * An attribute's id (gender, race, age, skin_tone …): data a suite declares, stored with each value
 * (AnnotationValue), so a new attribute needs no column. Lower-case letters, digits and _.
 */
export type LabelAttributeId = string;

export interface LabelAttribute {
  id: LabelAttributeId;
  label: string;
  /** the values stored for a human label, in key order */
  classes: readonly string[];
  /** keyboard keys in the review UI, one per class, in order */
  keys: readonly string[];
}

/** suite id → its attributes */
export type LabelSets = Record<string, readonly LabelAttribute[]>;

/** The attribute and value a key sets, or null when the key labels nothing in this set. */
export function keyAction(attrs: readonly LabelAttribute[], key: string): { attribute: LabelAttributeId; value: string } | null {
  const k = key.length === 1 ? key.toLowerCase() : key;
  for (const a of attrs) {
    const i = a.keys.indexOf(k);
    if (i >= 0) return { attribute: a.id, value: a.classes[i] };
  }
  return null;
}

/** Every key any label set uses (keys that need an annotator before they do anything). */
export function allLabelKeys(sets: LabelSets): Set<string> {
  return new Set(Object.values(sets).flatMap((attrs) => attrs.flatMap((a) => [...a.keys, ...a.keys.map((k) => k.toUpperCase())])));
}

/** Why a stored value is not a label of this set (null when it is, or when it is empty). */
export function invalidLabel(attrs: readonly LabelAttribute[], attribute: string, value: string | null): string | null {
  if (value === null) return null;
  const a = attrs.find((x) => x.id === attribute);
  if (!a) return `this suite's faces carry no ${attribute} label`;
  return a.classes.includes(value) ? null : `${attribute} "${value}" is not one of ${a.classes.join(", ")}`;
}

/** "1–7 for race, M / F for gender": the keys of a set, for hints. */
export function keyHint(attrs: readonly LabelAttribute[]): string {
  const keys = (a: LabelAttribute) =>
    a.keys.length > 2 && a.keys.every((k) => /^\d$/.test(k)) ? `${a.keys[0]}–${a.keys.at(-1)}` : a.keys.map((k) => k.toUpperCase()).join(" / ");
  return attrs.map((a) => `${keys(a)} for ${a.id}`).join(", ");
}
