// The scoring rules a run was launched under, client-safe (the server, `fof verify` and the browser's /verify read
// them alike). Scoring changes over releases — FACT-OR-FAIR's release profile followed the authors' released scripts
// from 2026-12-07 (docs/scoring.md), intervals took Student's t the same day — and a bundle must be re-scored as it was
// scored. Which rules that was is not the bundle's word: it is recorded on the run at launch (Run.rulesJson) and
// signed in the design before the first answer, so an insider who re-signs a bundle cannot present its scores under
// older rules (say, narrower intervals) than the run was launched with (docs/evidence.md, threat table).
import { z } from "zod";

const scoringRulesSchema = z
  .object({
    /** FACT-OR-FAIR: the release profile as the authors' released scripts compute it */
    scoring: z.literal("release-scripts").optional(),
    /** the intervals' quantile: Student's t on the design's degrees of freedom */
    quantile: z.literal("t"),
  })
  .strict();
export type ScoringRules = z.infer<typeof scoringRulesSchema>;

/** The rules a run launched now is scored under. */
export function currentRules(suiteId: string): ScoringRules {
  return suiteId === "fact-or-fair" ? { scoring: "release-scripts", quantile: "t" } : { quantile: "t" };
}

/** A run's recorded rules; null for a run launched before they were recorded (or a value that is not rules). */
export function rulesOf(json: unknown): ScoringRules | null {
  if (typeof json !== "string" || !json) return null;
  try {
    const parsed = scoringRulesSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Where a bundle's scores.json names other rules than its run was launched under (`rulesJson`, signed in the design):
 * the problem in words, or null. A run without recorded rules (launched before they were) constrains nothing: its
 * scores.json says how it was scored, and the limits in docs/evidence.md say what that leaves open.
 */
export function rulesProblem(rulesJson: unknown, stated: { scoring?: unknown; quantile?: unknown }): string | null {
  if (rulesJson === null || rulesJson === undefined || rulesJson === "") return null;
  const rules = rulesOf(rulesJson);
  if (!rules) return "the run's recorded scoring rules cannot be read";
  const said = (v: unknown) => (v === undefined ? "nothing" : JSON.stringify(v));
  const wrong: string[] = [];
  if (stated.scoring !== rules.scoring) wrong.push(`scoring ${said(stated.scoring)} (launched under ${said(rules.scoring)})`);
  if (stated.quantile !== rules.quantile) wrong.push(`quantile ${said(stated.quantile)} (launched under ${said(rules.quantile)})`);
  return wrong.length ? `scores.json states other rules than the run was launched under, as its signed design says: ${wrong.join("; ")}` : null;
}
