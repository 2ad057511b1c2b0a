// Templates name their slots as {{name}} or {{attribute.form}} (single braces stay literal, so a template can show
// {"answer": "<letter>"}). One parser for validation and rendering, so a template that validates renders.
const SLOT = /\{\{\s*([a-z0-9-]+)(?:\.([a-z0-9-]+))?\s*\}\}/g;

export interface Slot {
  name: string;
  form: string | null;
}

export function slotsOf(template: string): Slot[] {
  return [...template.matchAll(SLOT)].map((m) => ({ name: m[1], form: m[2] ?? null }));
}

/** Fills every slot; `value` returns null for a slot it does not know, which is an error (validation prevents it). */
export function fill(template: string, value: (slot: Slot) => string | null): string {
  return template.replace(SLOT, (_, name: string, form: string | undefined) => {
    const v = value({ name, form: form ?? null });
    if (v === null) throw new Error(`template slot {{${name}${form ? `.${form}` : ""}}} has no value`);
    return v;
  });
}
