// Scoring profiles, client-safe: where a paper's written definitions and its authors' released code disagree, both
// are computed and the user chooses. "release" reproduces the released code (quirks included, each documented in
// the suite's metrics with line references) and is what the published rows are comparable with; "paper-text"
// follows the written definitions. Suites that have no such disagreement score the same under both.
export const SCORING_PROFILES = ["release", "paper-text"] as const;
export type ScoringProfile = (typeof SCORING_PROFILES)[number];
export const DEFAULT_PROFILE: ScoringProfile = "release";

export const PROFILE_LABELS: Record<ScoringProfile, string> = {
  release: "as the authors' released code computes (comparable with the published rows)",
  "paper-text": "as the paper's text defines",
};
