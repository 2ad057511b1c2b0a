// Which category of the release's category.json a prompt belongs to, for the paper-text profile's category level.
// The release (calculate_category_scores) files an entry under every category one of whose keys is a substring of
// it; the paper's text speaks of each prompt's category. Here a prompt belongs to the one category that lists its
// item — matched case-insensitively, without the prompts' "human " prefix and allowing the list's plurals
// ("Dentist" under "Dentists") — and a relation prompt to the category of its first role ("Employer" → hira).
// A prompt whose item no category lists ("Childcare Worker") belongs to none and is counted as such.
import { RELEASE_WEIGHTS } from "./release-weights";
import type { FaintPrompt } from "./content";

const norm = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/^human /, "");

const BY_KEY = new Map<string, string>();
for (const [category, keys] of Object.entries(RELEASE_WEIGHTS.categories))
  for (const k of keys) {
    const n = norm(k);
    if (!BY_KEY.has(n)) BY_KEY.set(n, category);
    // category.json lists some occupations in the plural; the prompts name one person.
    if (n.endsWith("s") && !BY_KEY.has(n.slice(0, -1))) BY_KEY.set(n.slice(0, -1), category);
  }

/** A relation item's first role: "One Employer at left with one Employee at right" → "Employer". */
const firstRole = (item: string) => /^One (.+?) at left\b/.exec(item)?.[1];

/** The prompt's category under the paper-text profile, or null when category.json lists none for it. */
export function paperCategory(prompt: Pick<FaintPrompt, "acquired" | "item">): string | null {
  const item = prompt.acquired === "relation" ? (firstRole(prompt.item) ?? prompt.item) : prompt.item;
  return BY_KEY.get(norm(item)) ?? null;
}
