// How `fof explanations RUN` prints the results (local and --server alike): a table per model, or the JSON.
import type { ExplanationResults } from "../../lib/features/explanations/results";
import { TAG_MEANING } from "../../lib/explanations/tags";

export interface ExplanationsCliOptions {
  json?: boolean;
  pretty?: boolean;
  judge?: string;
  budget?: string;
  scope?: string;
}

const pct = (x: number | null | undefined) => (x === null || x === undefined ? "—" : `${(100 * x).toFixed(1)}%`);
const range = (lo: number | null, hi: number | null) => (lo === null || hi === null ? "" : ` [${pct(lo)}, ${pct(hi)}]`);

export function printExplanations(r: ExplanationResults, opts: ExplanationsCliOptions) {
  if (opts.json) {
    process.stdout.write(JSON.stringify(r, null, opts.pretty ? 2 : undefined) + "\n");
    return;
  }
  const scope = opts.scope ?? "model";
  const out: string[] = [];
  out.push(
    `${r.run.name} (${r.run.id}): ${r.explanations} explanations; ${r.sample.sampled} sampled, ${r.sample.reviewed} reviewed, ${r.sample.doublyReviewed} by two or more`,
  );
  out.push(
    r.judge
      ? `judge: ${r.judge.model} (rubric v${r.judge.rubricVersion}, pass ${r.judge.status}: ${r.judge.tagged} tagged, ${r.judge.invalid} unreadable, ${r.judge.failed} failed, $${r.judge.costUsd.toFixed(4)})`
      : "judge: none (start one with --judge <model>)",
  );
  out.push(
    "agreement (Krippendorff's alpha): " +
      Object.entries(r.agreement)
        .map(([tag, a]) => `${tag} ${a.alpha === null ? "—" : a.alpha.toFixed(2)}${a.lo === null ? "" : ` [${a.lo.toFixed(2)}, ${a.hi!.toFixed(2)}]`}`)
        .join("; "),
  );
  for (const row of r.rows.filter((x) => x.scope === scope)) {
    const where = [row.model, row.statisticId, row.context, row.chosen && `chose ${row.chosen} (${row.attribute})`].filter(Boolean).join(" · ");
    out.push(`\n${where}  (${row.reviewed} reviewed of ${row.explanations})`);
    for (const t of row.tags) {
      const people = `people ${pct(t.people.estimate)}${range(t.people.lo, t.people.hi)} (n=${t.people.n})`;
      const judge = t.judge
        ? t.judge.refused
          ? `judge: ${t.judge.refused}`
          : `judge corrected ${pct(t.judge.estimate)}${range(t.judge.lo, t.judge.hi)} (raw ${pct(t.judge.judged)}, checked on ${t.judge.checked})`
        : "";
      out.push(`  ${TAG_MEANING[t.tag].label.padEnd(26)} ${people}${judge ? `; ${judge}` : ""}`);
    }
  }
  process.stdout.write(out.join("\n") + "\n");
}
