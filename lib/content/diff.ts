// What a new version of a content set changes against the one before it, shown before it is saved: statistics
// added, removed and changed (which fields), scenarios added and removed per statistic and level, attributes and
// classes, templates, and the prompts it sends (for one seed: added, removed, changed — by query key).
import { previewPrompts } from "./preview";
import type { ContentSetInput, StatisticInput } from "./schema";

export interface ContentDiff {
  statistics: { added: string[]; removed: string[]; changed: Array<{ id: string; fields: string[] }> };
  scenarios: Array<{ statisticId: string; level: "highest" | "lowest"; added: string[]; removed: string[] }>;
  attributes: { added: string[]; removed: string[]; changed: string[] };
  templates: string[];
  language: { from: string; to: string } | null;
  prompts: { seed: number; added: number; removed: number; changed: number; examples: Array<{ key: string; before: string | null; after: string | null }> };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const EXAMPLES = 5;

function statisticFields(a: StatisticInput, b: StatisticInput): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => k !== "scenarios"));
  return [...keys].filter((k) => !same(a[k as keyof StatisticInput], b[k as keyof StatisticInput])).sort();
}

export function diffContent(before: ContentSetInput, after: ContentSetInput, seed = 0): ContentDiff {
  const a = new Map((before.statistics ?? []).map((s) => [s.id, s]));
  const b = new Map((after.statistics ?? []).map((s) => [s.id, s]));
  const statistics: ContentDiff["statistics"] = {
    added: [...b.keys()].filter((id) => !a.has(id)),
    removed: [...a.keys()].filter((id) => !b.has(id)),
    changed: [...b.keys()]
      .filter((id) => a.has(id))
      .flatMap((id) => {
        const fields = statisticFields(a.get(id)!, b.get(id)!);
        return fields.length ? [{ id, fields }] : [];
      }),
  };
  const scenarios: ContentDiff["scenarios"] = [];
  for (const [id, s] of b) {
    const old = a.get(id);
    if (!old) continue;
    for (const level of ["highest", "lowest"] as const) {
      const was = new Set(old.scenarios[level]);
      const is = new Set(s.scenarios[level]);
      const added = s.scenarios[level].filter((x) => !was.has(x));
      const removed = old.scenarios[level].filter((x) => !is.has(x));
      if (added.length || removed.length) scenarios.push({ statisticId: id, level, added, removed });
    }
  }
  const aa = new Map(before.attributes.map((x) => [x.id, x]));
  const ba = new Map(after.attributes.map((x) => [x.id, x]));
  const attributes = {
    added: [...ba.keys()].filter((id) => !aa.has(id)),
    removed: [...aa.keys()].filter((id) => !ba.has(id)),
    changed: [...ba.keys()].filter((id) => aa.has(id) && !same(aa.get(id), ba.get(id))),
  };
  const templates = Object.keys({ ...before.templates, ...after.templates })
    .filter((k) => !same(before.templates[k as keyof typeof before.templates], after.templates[k as keyof typeof after.templates]))
    .sort();
  const old = new Map([...previewPrompts(before, seed)].map((p) => [p.key, p.prompt]));
  const now = new Map([...previewPrompts(after, seed)].map((p) => [p.key, p.prompt]));
  const examples: ContentDiff["prompts"]["examples"] = [];
  let added = 0;
  let removed = 0;
  let changed = 0;
  for (const [key, prompt] of now) {
    const was = old.get(key);
    if (was === undefined) added++;
    else if (was !== prompt) changed++;
    else continue;
    if (examples.length < EXAMPLES) examples.push({ key, before: was ?? null, after: prompt });
  }
  for (const [key, prompt] of old)
    if (!now.has(key)) {
      removed++;
      if (examples.length < EXAMPLES) examples.push({ key, before: prompt, after: null });
    }
  return {
    statistics,
    scenarios,
    attributes,
    templates,
    language: before.language === after.language ? null : { from: before.language, to: after.language },
    prompts: { seed, added, removed, changed, examples },
  };
}
