// How a verifier words its last two checks — the same words from `fof verify` and from the browser's worker.
import type { BundleCheck } from "./check";
import type { ScoreCheck } from "./compare";

/** The stopping rule, re-checked (lib/features/evidence/looks.ts): values of every look taken again, and the rule's problems. */
export interface StoppingCheck {
  adaptive: boolean;
  values: ScoreCheck[];
  problems: string[];
}

const named = (wrong: ScoreCheck[]) =>
  wrong
    .slice(0, 5)
    .map((w) => w.path)
    .join("; ");

/** The stored queries against the plan made again (lib/features/evidence/plan-check.ts). */
export function planVerdict(r: { compared: number; planned: number; kept: string; content?: string; problems: string[] }): BundleCheck {
  return r.problems.length
    ? { check: "plan", ok: false, detail: `queries that are not the ones the run was planned with: ${r.problems.join("; ")}` }
    : {
        check: "plan",
        ok: true,
        detail: `${r.compared.toLocaleString("en-US")} queries planned again from the content, configuration and seed: each is the row planning wrote (${r.kept}). Content: ${r.content ?? "not checked"}`,
      };
}

/** The stored readings against the raw answers read again (lib/features/evidence/readings.ts). */
export function readingsVerdict(r: { read: number; problems: string[] }): BundleCheck {
  return r.problems.length
    ? { check: "readings", ok: false, detail: `stored readings that the raw answers do not give: ${r.problems.join("; ")}` }
    : {
        check: "readings",
        ok: true,
        detail: `${r.read.toLocaleString("en-US")} raw answers read again with the suite's own reader: every stored reading follows`,
      };
}

export function scoresVerdict(
  scores: ScoreCheck[],
  stated: { seed?: unknown; resamples?: unknown; suite?: unknown; scoring?: unknown; quantile?: unknown },
): BundleCheck {
  const wrong = scores.filter((s) => !s.equal);
  // FACT-OR-FAIR bundles say which release profile scored them; one that does not was scored as the profile was before
  // it followed the released scripts, and the reader is told (docs/scoring.md)
  const profile =
    stated.suite === "fact-or-fair"
      ? stated.scoring === "release-scripts"
        ? "; the release profile: each score as the authors' released scripts compute it"
        : "; scored under the release profile as it was before 2026-12-07 (the paper's definitions, d by the bounded search for text-to-image groups)"
      : "";
  // bundles written before Student's t name no quantile: their intervals are re-computed with the normal one
  const quantile = stated.quantile === "t" ? "" : "; intervals with the normal quantile, as written before 2026-12-07";
  return wrong.length
    ? { check: "scores", ok: false, detail: `${wrong.length} of ${scores.length} values do not follow from the data: ${named(wrong)}` }
    : {
        check: "scores",
        ok: true,
        detail: `${scores.length} values recomputed from the answers (seed ${stated.seed}, ${stated.resamples} resamples): all equal${profile}${quantile}`,
      };
}

/** A reasoning run's explanation results (format v3) against their recomputation from the readings and judgments. */
export function explanationsVerdict(values: ScoreCheck[]): BundleCheck {
  const wrong = values.filter((s) => !s.equal);
  return wrong.length
    ? { check: "explanations", ok: false, detail: `${wrong.length} of ${values.length} values do not follow from the readings and judgments: ${named(wrong)}` }
    : {
        check: "explanations",
        ok: true,
        detail: `${values.length} values recomputed from the readings and judgments (prevalences, intervals, agreement, the judge's accuracy): all equal`,
      };
}

export function stoppingVerdict(s: StoppingCheck, looks: number): BundleCheck {
  if (!s.adaptive) return { check: "stopping", ok: true, detail: "a run of fixed size: no stopping rule to check" };
  const wrong = s.values.filter((v) => !v.equal);
  if (s.problems.length || wrong.length)
    return {
      check: "stopping",
      ok: false,
      detail: [
        ...s.problems,
        ...(wrong.length ? [`${wrong.length} of ${s.values.length} values of the looks do not follow from the data: ${named(wrong)}`] : []),
      ].join("; "),
    };
  return {
    check: "stopping",
    ok: true,
    detail: `${looks} looks taken again at their scheduled levels, ${s.values.length} values equal: the run stopped as its rule says`,
  };
}
