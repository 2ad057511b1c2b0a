// Checks a content set beyond its shape (./schema.ts): every class named is declared, highest ≠ lowest, the values
// agree with the extremes, templates hold the slots they need and no others, the people of a question can show one
// person of each class, the language is a real one, no duplicates — each refusal naming its file, row and field.
import type { z } from "zod";
import { contentSetSchema, type ContentSetInput } from "./schema";
import { CONTENT_LIMITS } from "./limits";
import type { ContentIssue } from "./issues";
import { slotsOf } from "./placeholders";
import { peopleCount } from "./people";

/** Where a statistic (by index) and its scenarios came from, for issues: content.json or a CSV row. */
export interface Origins {
  statistic: (index: number) => { file: string; row: number | null; field: (f: string) => string };
  scenario: (statisticId: string, level: string, index: number) => { file: string; row: number | null };
}

export const JSON_ORIGINS = (file: string): Origins => ({
  statistic: (i) => ({ file, row: i + 1, field: (f) => f }),
  scenario: () => ({ file, row: null }),
});

/** Placeholders templates use for other things: no attribute may take their name. */
const RESERVED_SLOTS = ["name", "age", "statistic", "level", "definition", "region", "letters", "parts", "high", "low", "attribute", "identity", "behaviour"];

/** Scenarios per cell each preset needs: population intervals need three (docs/scoring.md, few-scenarios). */
export const MIN_SCENARIOS_FOR_PRESET: Record<string, number> = { smoke: 1, quick: 3, paper: 3 };

function languageKnown(tag: string): boolean {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    const language = new Intl.Locale(canonical).language;
    return new Intl.DisplayNames(["en"], { type: "language", fallback: "none" }).of(language) !== undefined;
  } catch {
    return false;
  }
}

function zodIssues(error: z.ZodError, file: string, origins: Origins): ContentIssue[] {
  return error.issues.map((i) => {
    const path = i.path.map(String);
    if (path[0] === "statistics" && path.length > 1) {
      const o = origins.statistic(Number(path[1]));
      return { file: o.file, row: o.row, field: o.field(path.slice(2).join(".") || "(row)"), message: i.message };
    }
    return { file, row: null, field: path.join(".") || "(root)", message: i.message };
  });
}

export function validateContent(
  raw: unknown,
  file: string,
  origins: Origins,
  opts: { preset?: string } = {},
): { ok: true; set: ContentSetInput } | { ok: false; issues: ContentIssue[] } {
  const parsed = contentSetSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, issues: zodIssues(parsed.error, file, origins) };
  const set = parsed.data;
  const issues: ContentIssue[] = [];
  const at = (field: string, message: string) => issues.push({ file, row: null, field, message });

  if (!languageKnown(set.language)) at("language", `unknown language code "${set.language}" (a BCP 47 tag such as en, de, pt-BR)`);
  const attrs = new Map(set.attributes.map((a) => [a.id, a]));
  set.attributes.forEach((a, i) => {
    if (RESERVED_SLOTS.includes(a.id)) at(`attributes.${i}.id`, `"${a.id}" names a template placeholder of its own: choose another id`);
  });
  if (attrs.size !== set.attributes.length) at("attributes", "duplicate attribute id");
  set.attributes.forEach((a, i) => {
    for (const key of ["id", "word"] as const) {
      const seen = new Set<string>();
      a.classes.forEach((c, j) => {
        const v = c[key].toLowerCase();
        if (seen.has(v)) at(`attributes.${i}.classes.${j}.${key}`, `duplicate class ${key} "${c[key]}" in ${a.id}`);
        seen.add(v);
      });
    }
  });
  const people = peopleCount(set.attributes.map((a) => a.classes.length));
  if (people > CONTENT_LIMITS.people)
    at("attributes", `a question would need ${people} people (the least common multiple of the class counts) — at most ${CONTENT_LIMITS.people}`);
  const names = new Set(set.templates.names.map((n) => n.toLowerCase()));
  if (names.size !== set.templates.names.length) at("templates.names", "duplicate name");
  if (names.size < people) at("templates.names", `${people} people per question need at least ${people} distinct names`);
  if (set.templates.ages && set.templates.ages.min > set.templates.ages.max) at("templates.ages", "min must not exceed max");

  // Templates: the slots each must hold, and the ones it may.
  const attrSlot = (s: { name: string; form: string | null }) => {
    const a = attrs.get(s.name);
    if (!a) return false;
    return s.form === null || a.classes.every((c) => c.forms?.[s.form!] !== undefined);
  };
  const checkTemplate = (field: string, template: string, required: string[], allowed: string[], attributes: boolean) => {
    const slots = slotsOf(template);
    for (const r of required) if (!slots.some((s) => s.name === r)) at(field, `missing its placeholder {{${r}}}`);
    for (const s of slots) {
      if (allowed.includes(s.name) && s.form === null) continue;
      if (attributes && attrSlot(s)) continue;
      const what = `{{${s.name}${s.form ? `.${s.form}` : ""}}}`;
      at(field, attrs.has(s.name) ? `${what}: not every class of ${s.name} has the form "${s.form}"` : `unknown placeholder ${what}`);
    }
    return slots;
  };
  const t = set.templates;
  checkTemplate("templates.objective", t.objective, ["statistic", "level"], ["statistic", "level", "definition", "region"], false);
  checkTemplate("templates.answer", t.answer, ["letters"], ["letters"], false);
  if (t.reasonFirst !== undefined) checkTemplate("templates.reasonFirst", t.reasonFirst, ["letters"], ["letters"], false);
  const personSlots = checkTemplate("templates.person", t.person, ["name"], ["name", ...(t.ages ? ["age"] : [])], true);
  for (const a of set.attributes)
    if (!personSlots.some((s) => s.name === a.id))
      at("templates.person", `does not name {{${a.id}}}: a question's people would not show one person of each class of ${a.id}`);
  const c = t.contexts;
  if (c?.representativeness) {
    checkTemplate("templates.contexts.representativeness.sentence", c.representativeness.sentence, ["parts"], ["parts", "region", "statistic"], false);
    checkTemplate("templates.contexts.representativeness.part", c.representativeness.part, ["high", "low"], ["high", "low", "attribute", "statistic"], false);
  }
  if ((c?.attribution || c?.ingroup) && !c.identity) at("templates.contexts.identity", "the attribution and in-group contexts need an identity template");
  if (c?.identity) checkTemplate("templates.contexts.identity", c.identity, [], [], true);
  if (c?.attribution) checkTemplate("templates.contexts.attribution", c.attribution, ["identity", "behaviour"], ["identity", "behaviour"], false);
  if (c?.ingroup) checkTemplate("templates.contexts.ingroup", c.ingroup, ["identity"], ["identity"], false);

  const statistics = set.statistics ?? [];
  if (!statistics.length) at("statistics", "a content set needs at least one statistic");
  const min = opts.preset ? (MIN_SCENARIOS_FOR_PRESET[opts.preset] ?? 1) : 1;
  const seenId = new Map<string, number>();
  const seenName = new Map<string, number>();
  statistics.forEach((s, i) => {
    const o = origins.statistic(i);
    const err = (field: string, message: string) => issues.push({ file: o.file, row: o.row, field: o.field(field), message });
    for (const [seen, key, field] of [
      [seenId, s.id, "id"],
      [seenName, s.name.toLowerCase(), "name"],
    ] as const) {
      if (seen.has(key)) err(field, `duplicate statistic ${field} "${key}" (first at row ${origins.statistic(seen.get(key)!).row})`);
      else seen.set(key, i);
    }
    const truths = Object.entries(s.groundTruth);
    if (!truths.length) err("groundTruth", "a statistic needs the highest and lowest class of at least one attribute");
    for (const [attrId, g] of truths) {
      const a = attrs.get(attrId);
      if (!a) {
        err(`groundTruth.${attrId}`, `attribute "${attrId}" is not declared`);
        continue;
      }
      const ids = a.classes.map((x) => x.id);
      for (const side of ["highest", "lowest"] as const)
        if (!ids.includes(g[side])) err(`groundTruth.${attrId}.${side}`, `class "${g[side]}" is not declared for ${attrId} (${ids.join(", ")})`);
      if (g.highest === g.lowest) err(`groundTruth.${attrId}`, `highest and lowest are both "${g.highest}": they must differ`);
      if (g.values) {
        for (const k of Object.keys(g.values)) if (!ids.includes(k)) err(`groundTruth.${attrId}.values.${k}`, `class "${k}" is not declared for ${attrId}`);
        const v = g.values;
        const known = Object.values(v);
        if (v[g.highest] !== undefined && known.some((x) => x > v[g.highest]))
          err(`groundTruth.${attrId}.highest`, `"${g.highest}" is not the class with the highest value given`);
        if (v[g.lowest] !== undefined && known.some((x) => x < v[g.lowest]))
          err(`groundTruth.${attrId}.lowest`, `"${g.lowest}" is not the class with the lowest value given`);
      }
    }
    for (const level of ["highest", "lowest"] as const) {
      const list = s.scenarios[level];
      if (list.length < min)
        err(`scenarios.${level}`, `${list.length} scenario(s); ${opts.preset ? `the ${opts.preset} preset needs` : "at least"} ${min} per statistic and level`);
      const seen = new Set<string>();
      list.forEach((x, j) => {
        const so = origins.scenario(s.id, level, j);
        if (seen.has(x.trim())) issues.push({ file: so.file, row: so.row, field: `scenarios.${level}`, message: `duplicate scenario of ${s.id}` });
        seen.add(x.trim());
      });
    }
    const high = new Set(s.scenarios.highest.map((x) => x.trim()));
    s.scenarios.lowest.forEach((x, j) => {
      if (!high.has(x.trim())) return;
      const so = origins.scenario(s.id, "lowest", j);
      issues.push({
        file: so.file,
        row: so.row,
        field: "scenarios.lowest",
        message: `the same text as a highest scenario of ${s.id}: a lowest scenario must ask the other way`,
      });
    });
    if (c?.attribution && !s.attribution) err("attribution", "the attribution context needs each statistic's behaviour for both sides");
  });
  return issues.length ? { ok: false, issues } : { ok: true, set };
}
