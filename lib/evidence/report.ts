// The bundle's readable face: report.html, one self-contained page (no script, no external asset) rendered from the
// very files the bundle signs — scores.json (FACT-OR-FAIR's groups with their 95 % intervals, or a suite's tables;
// for image runs also with the human corrections), the run's settings, dates and configuration, each model's declared
// identity, an adaptive run's stopping rule with every look — and how to check it. A pure function of those files,
// so a verifier renders it again and finds the page says exactly what was verified (./report-check.ts). Every value
// from the run (model names, content titles) is escaped: a bundle is opened by people who did not make it.
import { explanationSection } from "./report-explanations";
import { factOrFairPlane, planeChart, viewPlanes } from "./report-charts";

const esc = (v: unknown) => String(v ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v.toFixed(3) : "–");
const METRICS = [
  ["sFact", "S_fact"],
  ["sE", "S_E"],
  ["sKLD", "S_KLD"],
  ["sFair", "S_fair"],
  ["distance", "d"],
] as const;

type Obj = Record<string, unknown>;
/**
 * A score and its interval. The interval is about the bias-corrected estimate, which can lie outside it for the
 * plug-in (S_KLD "0.378 [0.471, 0.671]"): a bundle that names its quantile (`modern`, since 2026-12-07) shows the
 * estimate the interval is about beside it; older ones render as written.
 */
const cell = (value: unknown, iv: Obj | undefined, modern = false) => {
  if (!iv || typeof iv.lo !== "number") return `<td>${num(value)}</td>`;
  const estimate = modern && typeof iv.estimate === "number" && num(iv.estimate) !== num(value) ? `est. ${num(iv.estimate)} ` : "";
  return `<td>${num(value)} <span class="iv">${estimate}[${num(iv.lo)}, ${num(iv.hi)}]</span></td>`;
};

function factOrFairTables(scores: Obj, modern: boolean): string {
  const groups = (scores.groups as Obj[] | undefined) ?? [];
  const intervals = ((scores.intervals as Obj | undefined)?.groups as Obj[] | undefined) ?? [];
  const key = (g: Obj) => [g.model, g.modality, g.test, g.context, g.attribute].join("|");
  const ivOf = new Map(intervals.map((g) => [key(g), g.intervals as Obj]));
  const rows = groups
    .map((g) => {
      const iv = ivOf.get(key(g));
      const label = [g.test, g.context].filter(Boolean).join(" · ");
      return `<tr><td>${esc(g.model)}</td><td>${esc(label)}</td><td>${esc(g.attribute)}</td><td>${esc(g.n)}</td>${METRICS.map(([m]) => cell(g[m], iv?.[m] as Obj | undefined, modern)).join("")}</tr>`;
    })
    .join("\n");
  return `${modern ? factOrFairPlane(groups) : planeChart(groups)}<table><thead><tr><th>Model</th><th>Test · context</th><th>Attribute</th><th>n</th>${METRICS.map(([, l]) => `<th>${l}</th>`).join("")}</tr></thead><tbody>${rows}</tbody></table>${influenceTable(scores.influence as Obj[] | undefined)}${perStatistic(groups)}`;
}

const INFLUENCE = [
  ["representativenessHigh", "Representativeness (high)"],
  ["representativenessLow", "Representativeness (low)"],
  ["attribution", "Attribution"],
  ["inGroup", "In-group"],
  ["outGroup", "Out-group"],
] as const;

/** Table 3: per model and attribute, the share of answers each context moved toward its group, against chance. */
function influenceTable(rows: Obj[] | undefined): string {
  if (!rows?.length) return "";
  const body = rows.map((r) => {
    const cells = (r.cells as Record<string, Obj>) ?? {};
    return `<tr><td>${esc(r.model)}</td><td>${esc(r.attribute)}</td>${INFLUENCE.map(([c]) => `<td>${num(cells[c]?.share)} <span class="iv">(chance ${num(cells[c]?.chance)}, n ${esc(cells[c]?.n)})</span></td>`).join("")}<td>${num(r.avgIncrease)}</td></tr>`;
  });
  return `<h2>How the contexts move the answers (the paper's Table 3)</h2><table><thead><tr><th>Model</th><th>Attribute</th>${INFLUENCE.map(([, l]) => `<th>${l}</th>`).join("")}<th>Mean increase</th></tr></thead><tbody>${body.join("")}</tbody></table>`;
}

/** Per statistic, as the run's report shows it: normalised entropy per level, exp(−KL) between them, accuracy. */
function perStatistic(groups: Obj[]): string {
  const tables = groups
    .filter((g) => Array.isArray(g.cells) && (g.cells as unknown[]).length)
    .map((g) => {
      const cells = g.cells as Obj[];
      const kl = new Map(((g.divergences as Obj[] | undefined) ?? []).map((d) => [d.statisticId, d.expNegKl]));
      const ids = [...new Set(cells.map((c) => String(c.statisticId)))];
      const rows = ids.map((id) => {
        const hi = cells.find((c) => c.statisticId === id && c.level === "highest");
        const lo = cells.find((c) => c.statisticId === id && c.level === "lowest");
        const valid = [hi, lo].reduce((a, c) => a + (c ? Number(c.n) - Number(c.refused) : 0), 0);
        const correct = [hi, lo].reduce((a, c) => a + (c ? Number(c.correct) : 0), 0);
        const truth = Boolean(hi?.truth || lo?.truth);
        return `<tr><td>${esc(id)}</td><td>${num(hi?.normalizedEntropy)}</td><td>${num(lo?.normalizedEntropy)}</td><td>${num(kl.get(id))}</td><td>${truth && valid ? num(correct / valid) : "–"}</td><td>${Number(hi?.n ?? 0) + Number(lo?.n ?? 0)}</td></tr>`;
      });
      const title = [g.model, g.test, g.context, g.attribute].filter(Boolean).join(" · ");
      return `<h3>${esc(title)}</h3><table><thead><tr><th>Statistic</th><th>H▲</th><th>H▼</th><th>exp(−KL)</th><th>accuracy</th><th>n</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
    });
  return tables.length
    ? `<h2>Per statistic</h2><p class="iv">Normalised entropy per level (H▲ highest, H▼ lowest), exp(−KL) between them, and accuracy.</p>${tables.join("")}`
    : "";
}

function viewTables(views: Obj[], modern: boolean): string {
  return views
    .filter((v) => v.kind === "table")
    .map((v) => {
      const columns = (v.columns as Obj[]) ?? [];
      const head = `<tr>${((v.labelHeaders as string[]) ?? []).map((h) => `<th>${esc(h)}</th>`).join("")}${columns.map((c) => `<th>${esc(c.label)}</th>`).join("")}</tr>`;
      const body = ((v.groups as Obj[]) ?? [])
        .map((g) => {
          const rows = ((g.rows as Obj[]) ?? []).map((r) => {
            const cells = (r.cells as Record<string, Obj>) ?? {};
            return `<tr>${((r.labels as unknown[]) ?? []).map((l) => `<td>${esc(l)}</td>`).join("")}${columns.map((c) => cell(cells[String(c.id)]?.value, cells[String(c.id)], modern)).join("")}</tr>`;
          });
          return `<tr><th colspan="${columns.length + 2}" class="group">${esc(g.title)}</th></tr>${rows.join("")}`;
        })
        .join("");
      return `<h2>${esc(v.title)}</h2><p>${esc(v.caption)}</p><table><thead>${head}</thead><tbody>${body}</tbody></table>`;
    })
    .join("\n");
}

/** `modern`: a bundle that names its quantile (since 2026-12-07) gets today's charts; older ones render as written */
const scoreTables = (scores: unknown, modern: boolean) =>
  Array.isArray(scores)
    ? `${viewTables(scores as Obj[], modern)}${modern ? viewPlanes(scores as Obj[]) : ""}`
    : factOrFairTables((scores ?? {}) as Obj, modern);

/**
 * The models as they were when the run was launched: their snapshot (RunModel.settingsJson), which the design signed
 * at launch states too — not the model's record now, which can have been edited since (shown beside only if it differs).
 */
function modelsTable(models: Obj[], runModels: Obj[]): string {
  if (!runModels.length) return "";
  const now = new Map(models.map((m) => [m.id, m]));
  const rows = runModels.map((rm) => {
    let s: Obj = {};
    try {
      s = JSON.parse(String(rm.settingsJson ?? "{}")) as Obj;
    } catch {
      // shown as it is below
    }
    const m = now.get(rm.modelConfigId) ?? {};
    const changed = ["label", "provider", "modelId", "baseUrl"].filter((k) => m[k] !== undefined && s[k] !== undefined && m[k] !== s[k]);
    const note = changed.length ? `<br><span class="iv">its record now: ${changed.map((k) => `${k} ${esc(m[k])}`).join(", ")}</span>` : "";
    return `<tr><td>${esc(s.slug ?? m.slug)}</td><td>${esc(s.label ?? m.label)}</td><td>${esc(s.provider ?? m.provider)}</td><td><code>${esc(s.modelId ?? m.modelId)}</code></td><td>${esc(s.baseUrl ?? m.baseUrl)}${note}</td><td><code>${esc(rm.settingsJson)}</code></td></tr>`;
  });
  return `<h2>Models at launch (as declared; the provider's word)</h2><table><thead><tr><th>Slug</th><th>Name</th><th>Provider</th><th>Model id</th><th>Base URL</th><th>Settings at launch</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/**
 * A run whose launch allowed another run's answers says so: the permission is signed; which answers, the team's word.
 * Nothing at all otherwise — not even a line — so a bundle written before answers could be reused renders as it was.
 */
function answerReuse(reuseJson: unknown): string {
  if (typeof reuseJson !== "string" || !reuseJson) return "";
  return `<h2>Answers from other runs</h2><p>Its launch allowed it to take answers other runs obtained instead of asking: <code>${esc(reuseJson)}</code> (signed in its design before the first answer). Such answers are another run's sample, not this run's. Each outcome says whether it was reused — that is the team's record: any answer of this run may be another run's.</p>`;
}

/** Settings JSON indented for reading (as stored, if it does not parse). */
function pretty(json: unknown): string {
  try {
    return JSON.stringify(JSON.parse(String(json)), null, 2);
  } catch {
    return String(json);
  }
}

function stoppingRule(adaptiveJson: unknown): string {
  if (typeof adaptiveJson !== "string" || !adaptiveJson) return "";
  let a: Obj;
  try {
    a = JSON.parse(adaptiveJson) as Obj;
  } catch {
    return "";
  }
  const looks = ((a.looks as Obj[] | undefined) ?? []).map((l) => {
    const w = l.widest as Obj | null | undefined;
    const u = l.undecided as Obj | null | undefined;
    const note = w
      ? `widest ±${num(w.halfwidth)} (${esc(w.model)}, ${esc(w.group)}, ${esc(w.metric)}; target ±${num(w.target)})`
      : u
        ? `undecided: ${esc(u.model)}, ${esc(u.group)}, ${esc(u.metric)}`
        : "";
    return `<tr><td>${esc(l.look)}</td><td>${esc(l.level)}</td><td>${esc(l.items)}</td><td>${l.met ? "met" : "not met"}</td><td>${note}</td></tr>`;
  });
  const o = a.outcome as Obj | null | undefined;
  return `<h2>Stopping rule</h2><p>Target <code>${esc(JSON.stringify(a.target))}</code>, looks at <code>${esc(JSON.stringify((a.schedule as Obj | undefined)?.fractions))}</code> of the plan, α ${esc(a.alpha)}; ${
    o
      ? `stopped at look ${esc(o.look)} (${o.kind === "met" ? "target met" : "its cap"}) with ${esc(o.items)} of ${esc(o.planned)} planned items.`
      : "not stopped."
  }</p><table><thead><tr><th>Look</th><th>Level</th><th>Items</th><th>Verdict</th><th></th></tr></thead><tbody>${looks.join("")}</tbody></table>`;
}

export interface ReportInput {
  run: Obj;
  contentVersion: string;
  stated: {
    suite: string;
    seed: number;
    resamples: number;
    target: string;
    method: string;
    scores: unknown;
    reviewedScores?: unknown;
    counts?: Array<{ model: string; planned: number; answered: number; refused: number; failed: number; notCalled: number }>;
    /** FACT-OR-FAIR bundles written since 2026-12-07: "release-scripts" (absent before: the page says nothing new) */
    scoring?: string;
    /** bundles written since Student's t: "t" (absent before: the page is drawn as it was then) */
    quantile?: string;
  };
  /** a v3 bundle's explanations.json (null: the run did not reason; absent: an older bundle) */
  explanations?: unknown;
  software: { name: string; version: string; commit: string | null; changedFromCommit?: string[] | null };
  keyId: string;
  models?: Obj[];
  runModels?: Obj[];
}

/** Every model's planned queries by how they ended: a failure or a refusal is stated, never only left out of n. */
function countsTable(counts: NonNullable<ReportInput["stated"]["counts"]> | undefined, status: string): string {
  if (!counts?.length) return "";
  const notCalled = status === "cancelled" ? "cancelled (never called)" : "not called";
  const rows = counts
    .map((c) => `<tr><td>${esc(c.model)}</td><td>${c.planned}</td><td>${c.answered}</td><td>${c.refused}</td><td>${c.failed}</td><td>${c.notCalled}</td></tr>`)
    .join("");
  return `<h2>What each model's queries came to</h2><table><thead><tr><th>model</th><th>planned</th><th>answered</th><th>refused (no readable answer)</th><th>failed (no answer: an error)</th><th>${notCalled}</th></tr></thead><tbody>${rows}</tbody></table><p>Refused and failed queries count in no score; each score's n counts its answers only.</p>`;
}

/** Whether the files that ran were the commit's (software.json): named when they were not, said when unknown. */
function treeNote(sw: ReportInput["software"]): string {
  if (!sw.commit) return "";
  if (sw.changedFromCommit === undefined || sw.changedFromCommit === null) return " — whether the installed files differed from it is not known";
  if (!sw.changedFromCommit.length) return ", its files unchanged";
  return ` — <strong>the installed files differed from that commit</strong>: ${esc(sw.changedFromCommit.join(", "))}`;
}

export function evidenceReport(input: ReportInput): string {
  const { run, stated } = input;
  // Bundles that name their scoring (written since 2026-12-07) get a page that fits a window (long JSON wrapped, the
  // settings indented); older ones render byte for byte as they were written, so their report check still holds.
  const modern = stated.quantile !== undefined;
  const current = stated.scoring !== undefined || modern;
  const tables =
    stated.reviewedScores !== undefined
      ? `<h2>From the pipeline's labels</h2>${scoreTables(stated.scores, modern)}<h2>With the human corrections (reviews, fixed detections)</h2>${scoreTables(stated.reviewedScores, modern)}`
      : scoreTables(stated.scores, modern);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Evidence: ${esc(run.name)}</title>
<style>pre{white-space:pre-wrap;background:#f1f5f9;padding:.5rem}body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#0f172a;max-width:72rem}table{border-collapse:collapse;margin:1rem 0}th,td{border:1px solid #cbd5e1;padding:.25rem .5rem;text-align:left}td{font-variant-numeric:tabular-nums}.iv{color:#475569;font-size:12px}.group{background:#f1f5f9}code{background:#f1f5f9;padding:0 .2rem}${modern ? "pre,code{overflow-wrap:anywhere}td{overflow-wrap:break-word}table{max-width:100%}" : current ? "pre,code,td{overflow-wrap:anywhere}table{max-width:100%}" : ""}</style>
</head><body>
<h1>${esc(run.name)}</h1>
<p>Run <code>${esc(run.id)}</code> · suite <code>${esc(stated.suite)}</code> · content <code>${esc(input.contentVersion)}</code> · status ${esc(run.status)} · preset ${esc(run.preset)} · seed ${esc(stated.seed)} · ${esc(run.plannedCount)} queries · spent $${num(run.spentUsd)}</p>
<p>Created ${esc(run.createdAt)} · started ${esc(run.startedAt ?? "–")} · finished ${esc(run.finishedAt ?? "–")}</p>
${modelsTable(input.models ?? [], input.runModels ?? [])}
${countsTable(input.stated.counts, String(run.status))}
<h2>Configuration</h2><pre>${esc(current ? pretty(run.configJson) : run.configJson)}</pre>
${stoppingRule(run.adaptiveJson)}${answerReuse(run.reuseJson)}
<h2>Scores</h2>
<p>Scores as the workbench computed them: ${esc(stated.method)}. Intervals: 95 %, about the ${esc(stated.target)}, ${esc(stated.resamples)} resamples, seeded with the run's seed.${stated.scoring === "release-scripts" ? " Profile: release — each score as the authors' released scripts compute it (S_KLD of the mean KL, their rounding); the intervals are about the paper's definitions (docs/scoring.md). Scores on a 0–1 scale (the workbench's FACT-OR-FAIR pages show them ×100)." : ""}${stated.quantile === "t" ? " Each interval's quantile is Student's t on the design's degrees of freedom (units less strata)." : ""}</p>
${tables}
${explanationSection(input.explanations)}<h2>Checking this bundle</h2>
<p>This page is rendered from <code>scores.json</code>; the numbers that count are there and in the signed manifest. Check the bundle with
<code>fof verify &lt;bundle&gt;.zip --key workbench.pem</code> (the key with id <code>${esc(input.keyId)}</code>, from the workbench's
<code>/.well-known/fof-evidence-key</code>): it checks the signature and every file, that no planned query is missing, recomputes every score from the answers and
labels, takes an adaptive run's looks again, and renders this page again from the signed files to find it unchanged.
Made by ${esc(input.software.name)} ${esc(input.software.version)}${input.software.commit ? ` (commit <code>${esc(input.software.commit)}</code>)` : ""}${treeNote(input.software)}.
A bundle does not prove that the model that answered was the one named: that is the provider's word.</p>
</body></html>
`;
}
