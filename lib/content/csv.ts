// The two tables a team may keep as CSV instead of inside content.json. statistics.csv: one row per statistic —
// id, name, definition, definition_in_sentence, category, polarity, source_organisation, source_url, source_year,
// source_citation, attribution_highest, attribution_lowest, and per attribute <attr>_highest, <attr>_lowest,
// <attr>_unit, <attr>_value_<class>. scenarios.csv: statistic, level (highest | lowest), text — one row per scenario.
// Issues name the CSV row and column a team would fix.
import { ContentError, type ContentIssue } from "./issues";
import type { Origins } from "./validate";

const BASE: Record<string, string> = {
  id: "id",
  name: "name",
  definition: "definition",
  definition_in_sentence: "definitionInSentence",
  category: "category",
  polarity: "polarity",
  source_organisation: "source.organisation",
  source_url: "source.url",
  source_year: "source.year",
  source_citation: "source.citation",
  attribution_highest: "attribution.highest",
  attribution_lowest: "attribution.lowest",
};

function set(target: Record<string, unknown>, dotted: string, value: unknown) {
  const keys = dotted.split(".");
  let o = target;
  for (const k of keys.slice(0, -1)) o = (o[k] ??= {}) as Record<string, unknown>;
  o[keys[keys.length - 1]] = value;
}

export function statisticsFromCsv(rows: Array<Record<string, string>>, attributes: string[]): { statistics: unknown[]; origins: Origins } {
  const issues: ContentIssue[] = [];
  const columnOf = new Map<string, string>(Object.entries(BASE).map(([col, f]) => [f, col]));
  const statistics = rows.map((r, i) => {
    const s: Record<string, unknown> = { groundTruth: {}, scenarios: { highest: [], lowest: [] } };
    for (const [col, raw] of Object.entries(r)) {
      if (raw === "") continue;
      if (BASE[col]) {
        set(s, BASE[col], col === "source_year" ? Number(raw) : raw);
        continue;
      }
      const m = /^([a-z0-9-]+)_(highest|lowest|unit|value_(.+))$/.exec(col);
      if (!m || !attributes.includes(m[1])) {
        issues.push({ file: "statistics.csv", row: i + 2, field: col, message: m ? `attribute "${m[1]}" is not declared in content.json` : "unknown column" });
        continue;
      }
      const g = ((s.groundTruth as Record<string, Record<string, unknown>>)[m[1]] ??= {});
      if (m[3] !== undefined) {
        const v = Number(raw);
        if (!Number.isFinite(v)) issues.push({ file: "statistics.csv", row: i + 2, field: col, message: `"${raw}" is not a number` });
        ((g.values ??= {}) as Record<string, number>)[m[3]] = v;
      } else g[m[2]] = raw;
    }
    if (r.attribution_highest === "" && r.attribution_lowest === "") delete s.attribution;
    return s;
  });
  if (issues.length) throw new ContentError(issues);
  const field = (f: string) => {
    if (columnOf.has(f)) return columnOf.get(f)!;
    const m = /^groundTruth\.([a-z0-9-]+)(?:\.(highest|lowest|unit|values\.(.+)))?$/.exec(f);
    if (m) return m[2] === undefined ? `${m[1]}_highest/${m[1]}_lowest` : m[3] !== undefined ? `${m[1]}_value_${m[3]}` : `${m[1]}_${m[2]}`;
    return f;
  };
  return {
    statistics,
    origins: {
      statistic: (i) => ({ file: "statistics.csv", row: i + 2, field }),
      scenario: () => ({ file: "statistics.csv", row: null }),
    },
  };
}

export function scenariosFromCsv(rows: Array<Record<string, string>>, statistics: Array<Record<string, unknown>>, origins: Origins): Origins {
  const issues: ContentIssue[] = [];
  const rowOf = new Map<string, number>();
  const byId = new Map(statistics.map((s) => [String(s.id), s]));
  rows.forEach((r, i) => {
    const row = i + 2;
    const s = byId.get(r.statistic ?? "");
    if (!s) return void issues.push({ file: "scenarios.csv", row, field: "statistic", message: `statistic "${r.statistic ?? ""}" is not in the statistics` });
    if (r.level !== "highest" && r.level !== "lowest")
      return void issues.push({ file: "scenarios.csv", row, field: "level", message: `"${r.level ?? ""}" must be highest or lowest` });
    if (!r.text) return void issues.push({ file: "scenarios.csv", row, field: "text", message: "must not be empty" });
    const sc = ((s.scenarios ??= { highest: [], lowest: [] }) as Record<string, string[]>)[r.level] ?? [];
    (s.scenarios as Record<string, string[]>)[r.level] = sc;
    rowOf.set(`${r.statistic}|${r.level}|${sc.length}`, row);
    sc.push(r.text);
  });
  if (issues.length) throw new ContentError(issues);
  return { ...origins, scenario: (id, level, index) => ({ file: "scenarios.csv", row: rowOf.get(`${id}|${level}|${index}`) ?? null }) };
}
