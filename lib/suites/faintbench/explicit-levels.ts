// The explicit levels the released explicit.py computes beyond Table 12 and 13: per requested class (its
// protect_attr_level: man … elderly) and per category of category.json (calculate_category_scores' category_level;
// the paper's Tables 14–16). Under the release profile each entry counts where the release's substring rules file it
// (release-weights.ts), and the paper's category rows sit beside it; under paper-text each prompt counts at the
// class(es) it asked for and at its one category (categories.ts), without the paper's rows (they come from the rules).
import publishedJson from "../../../data/suites/faintbench/published.json";
import type { TableView, ViewCell, ViewRow } from "../views";
import { CLASSES } from "./classes";
import { RELEASE_WEIGHTS } from "./release-weights";
import { EXPLICIT_CLASSES, type ModelScores, type Scored } from "./score";

const cell = (s: Scored | undefined): ViewCell => (s ? { value: s.value, estimate: s.estimate, lo: s.lo, hi: s.hi, n: s.n } : { value: null });
const column = (id: string, label: string) => ({ id, label, better: "up" as const, digits: 3, unit: "" as const });

/** The release's class words, as explicit.py names its per-class rows. */
const RELEASE_CLASS_WORD: Record<string, string> = { male: "man", female: "woman" };

export function classTable(scores: Map<string, ModelScores>): TableView {
  const rows: ViewRow[] = [...scores].map(([model, s]) => ({
    labels: [model],
    source: "run",
    cells: Object.fromEntries(EXPLICIT_CLASSES.map((c) => [c.key, cell(s.explicit.byClass[c.key])])),
  }));
  return {
    kind: "table",
    id: "explicit-classes",
    title: "Explicit bias per requested class (explicit.py's class level)",
    caption: `Share of images showing the requested class, per class asked for, 0–1 (the release's rows ${EXPLICIT_CLASSES.map((c) => RELEASE_CLASS_WORD[c.value] ?? c.value).join(", ")}; ${CLASSES.race.length} races, ${CLASSES.age.length} ages). n = prompts behind the value. The paper prints no table of these.`,
    labelHeaders: ["Model"],
    columns: EXPLICIT_CLASSES.map((c) => column(c.key, c.value)),
    groups: [{ title: "Explicit bias score", rows }],
  };
}

/** The paper's row names for the categories (Tables 14–16), in category.json's order within each table. */
const PRINTED = new Map(publishedJson.byCategory.map((r) => [r.category, r.printed]));
const TABLES: Array<{ id: string; title: string; categories: string[] }> = [
  { id: "characteristic", title: "characteristic (the paper's Table 14)", categories: ["positive", "negative"] },
  { id: "relation", title: "social relation (the paper's Table 16)", categories: ["equal", "instr", "hira"] },
];
const OCCUPATIONS = Object.keys(RELEASE_WEIGHTS.categories).filter((c) => !TABLES.some((t) => t.categories.includes(c)));
TABLES.splice(1, 0, { id: "occupation", title: "occupation (the paper's Table 15)", categories: OCCUPATIONS });

export function categoryTables(scores: Map<string, ModelScores>, withPaper: boolean, profile: "release" | "paper-text"): TableView[] {
  return TABLES.map((t) => {
    const rows: ViewRow[] = [...scores].map(([model, s]) => ({
      labels: [model],
      source: "run",
      cells: Object.fromEntries(t.categories.map((c) => [c, cell(s.explicit.byCategory[c])])),
    }));
    if (withPaper && profile === "release")
      for (const m of publishedJson.models)
        rows.push({
          labels: [`${m} (paper)`],
          source: "published",
          cells: Object.fromEntries(
            t.categories.map((c) => [c, { value: publishedJson.byCategory.find((r) => r.model === m && r.category === c)?.value ?? null }]),
          ),
        });
    return {
      kind: "table",
      id: `explicit-categories-${t.id}`,
      title: `Explicit bias per category: ${t.title}`,
      caption: `Share of images showing the requested class, per category of the release's category.json, 0–1; n = prompts behind the value. ${
        profile === "release"
          ? 'Filed as explicit.py files them: an entry counts under every category one of whose keys it contains (so "Police Officer" also counts under the relation category hira); a category no entry reaches is empty here where the release writes 0.'
          : "Filed by the paper's text: each prompt under the one category that lists its item (a relation by its first role); the paper's rows come from the release's rules and are shown with the release profile only."
      }`,
      labelHeaders: ["Model"],
      columns: t.categories.map((c) => column(c, PRINTED.get(c) ?? c)),
      groups: [{ title: "Explicit bias score", rows }],
    };
  });
}
