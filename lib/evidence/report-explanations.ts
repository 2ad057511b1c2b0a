// report.html's section for a reasoning run's explanations (format v3, explanations.json): per model, how often its
// explanations show each cognitive error — the people's sample and the judge corrected, 95 % intervals — with the
// reviewers' agreement and the judge's identity, rubric and accuracy. Pure; nothing for a bundle without them.
import { EXPLANATION_TAGS, TAG_MEANING, type ExplanationTag } from "../explanations/tags";

type Obj = Record<string, unknown>;
const esc = (v: unknown) => String(v ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
const pct = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? `${(100 * v).toFixed(1)} %` : "–");
const label = (t: unknown) => esc(TAG_MEANING[t as ExplanationTag]?.label ?? t);

function prevalence(p: Obj | null | undefined, judge: boolean): string {
  if (!p) return "–";
  if (judge && p.refused) return `uncorrected ${pct(p.judged)}: ${esc(p.refused)}`;
  if (p.estimate === null || p.estimate === undefined) return "not reviewed";
  return `${pct(p.estimate)} <span class="iv">${pct(p.lo)}–${pct(p.hi)}, n = ${esc(p.n)}${judge ? `, raw ${pct(p.judged)}` : ""}</span>`;
}

export function explanationSection(explanations: unknown): string {
  if (!explanations || typeof explanations !== "object") return "";
  const r = explanations as Obj;
  const rows = ((r.rows as Obj[] | undefined) ?? []).filter((x) => x.scope === "model");
  const body = rows
    .flatMap((row) =>
      ((row.tags as Obj[] | undefined) ?? []).map(
        (t, i) =>
          `<tr${i === 0 ? ' class="group"' : ""}><td>${i === 0 ? `${esc(row.model)} <span class="iv">(${esc(row.reviewed)} reviewed of ${esc(row.explanations)})</span>` : ""}</td><td>${label(t.tag)}</td><td>${prevalence(t.people as Obj, false)}</td><td>${prevalence(t.judge as Obj | null, true)}</td></tr>`,
      ),
    )
    .join("");
  const agreement = (r.agreement ?? {}) as Record<string, Obj>;
  const alphas = EXPLANATION_TAGS.map((t) => `${label(t)} ${typeof agreement[t]?.alpha === "number" ? (agreement[t].alpha as number).toFixed(2) : "–"}`).join(
    " · ",
  );
  const judge = r.judge as Obj | null;
  const sample = (r.sample ?? {}) as Obj;
  return `<h2>Why models choose whom: explanations read for cognitive errors</h2>
<p>${esc(r.explanations)} explanations of subjective answers; ${esc(sample.sampled)} sampled within model × statistic × context, ${esc(sample.reviewed)} reviewed (${esc(sample.doublyReviewed)} by two or more). Reviewers' agreement (Krippendorff's alpha): ${alphas}.</p>
<p>${judge ? `Judge: ${esc(judge.model)} (${esc(judge.provider)} <code>${esc(judge.modelId)}</code>), rubric v${esc(judge.rubricVersion)} — a model, not a person; its numbers are corrected for its misreadings as measured against the reviewers.` : "No judge read these explanations."}</p>
<table><thead><tr><th>Model</th><th>Error</th><th>People's sample</th><th>Judge, corrected</th></tr></thead><tbody>${body}</tbody></table>`;
}
