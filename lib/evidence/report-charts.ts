// report.html's charts: for bundles that name their interval quantile (written since 2026-12-07) the paper's
// factuality–fairness plane as static SVG — no script, no external asset, every name escaped — with axis ticks, the upper bound g_k each group's d is measured to, and the models named
// in a legend rather than only in a hover title (which a printed page or a screen reader never shows); for older
// bundles the chart they were written with (planeChart), byte for byte, so their report check still holds.
import { upperBound } from "../metrics/bound";

type Obj = Record<string, unknown>;
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v.toFixed(3) : "–");
const esc = (v: unknown) => String(v ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

interface PlanePoint {
  /** whose point: the legend's entries, one colour each */
  model: string;
  /** the rest of the group's name (test · context · attribute), shown on hover */
  group: string;
  /** the number of classes of the point's attribute: its curve, and its marker */
  k: number | null;
  sFact: number;
  sE: number;
}

// Colour-blind-safe categorical colours (Okabe & Ito 2008), then repeating with a ring to tell the repeats apart.
const COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442"];
const DASHES = ["6 3", "2 3", "", "9 3 2 3"];
const MAX_MODELS_NAMED = 24;

const [W, H] = [680, 420];
const [LEFT, RIGHT, TOP, BOTTOM] = [56, 220, 16, 48];
const x = (v: number) => LEFT + v * (W - LEFT - RIGHT);
const y = (v: number) => H - BOTTOM - v * (H - TOP - BOTTOM);
const f1 = (v: number) => v.toFixed(1);

/** A marker: circle, square or triangle (one per k), centred on (cx, cy). */
function shape(kind: number, cx: number, cy: number, colour: string, extra = "", title = ""): string {
  if (kind === 1) return `<rect x="${f1(cx - 4)}" y="${f1(cy - 4)}" width="8" height="8" fill="${colour}"${extra}>${title}</rect>`;
  if (kind === 2) return `<path d="M${f1(cx)} ${f1(cy - 5)}L${f1(cx + 5)} ${f1(cy + 4)}L${f1(cx - 5)} ${f1(cy + 4)}Z" fill="${colour}"${extra}>${title}</path>`;
  return `<circle cx="${f1(cx)}" cy="${f1(cy)}" r="4.5" fill="${colour}"${extra}>${title}</circle>`;
}

/**
 * The plane: S_fact (x) against S_E (y), ticks every 0.2, the curve g_k for every k among the points (a point's d is
 * its distance to its own curve), one colour per model (named in the legend), one marker per k.
 * `kNames`: what each k is called in the legend (e.g. 2 → "gender"); absent, "k = 2".
 */
function planeSvg(title: string, points: readonly PlanePoint[], kNames: ReadonlyMap<number, string> = new Map()): string {
  const shown = points.filter((p) => Number.isFinite(p.sFact) && Number.isFinite(p.sE));
  if (!shown.length) return "";
  const models = [...new Set(shown.map((p) => p.model))].sort();
  const ks = [...new Set(shown.map((p) => p.k).filter((k): k is number => k !== null && Number.isInteger(k) && k >= 2))].sort((a, b) => a - b);
  const shapeOf = (k: number | null) => (k === null ? 0 : Math.max(0, ks.indexOf(k)) % 3);
  const colourOf = new Map(models.map((m, i) => [m, { colour: COLOURS[i % COLOURS.length], ring: i >= COLOURS.length }]));
  const ticks = [0, 0.2, 0.4, 0.6, 0.8, 1];
  const grid = ticks
    .map(
      (t) =>
        `<line x1="${f1(x(t))}" y1="${TOP}" x2="${f1(x(t))}" y2="${H - BOTTOM}" stroke="#e2e8f0"/><line x1="${LEFT}" y1="${f1(y(t))}" x2="${W - RIGHT}" y2="${f1(y(t))}" stroke="#e2e8f0"/>` +
        `<text x="${f1(x(t))}" y="${H - BOTTOM + 16}" text-anchor="middle" font-size="11">${t.toFixed(1)}</text><text x="${LEFT - 6}" y="${f1(y(t) + 4)}" text-anchor="end" font-size="11">${t.toFixed(1)}</text>`,
    )
    .join("");
  const curves = ks
    .map((k, i) => {
      const g = upperBound(k);
      const path = Array.from({ length: 101 }, (_, j) => `${j ? "L" : "M"}${f1(x(j / 100))} ${f1(y(g(j / 100)))}`).join("");
      return `<path d="${path}" fill="none" stroke="#64748b" stroke-width="1.5"${DASHES[i % DASHES.length] ? ` stroke-dasharray="${DASHES[i % DASHES.length]}"` : ""}><title>upper bound g_${k}</title></path>`;
    })
    .join("");
  const dots = shown
    .map((p) => {
      const { colour, ring } = colourOf.get(p.model)!;
      const title = `<title>${esc(p.model)} · ${esc(p.group)}: S_fact ${p.sFact.toFixed(3)}, S_E ${p.sE.toFixed(3)}</title>`;
      const at = (v: number) => Math.min(1, Math.max(0, v));
      return shape(shapeOf(p.k), x(at(p.sFact)), y(at(p.sE)), colour, ring ? ` stroke="#ffffff" stroke-width="1.5"` : "", title);
    })
    .join("");
  // The legend: curves and markers per k, then the models (the first MAX_MODELS_NAMED; the rest said as a count).
  const lx = W - RIGHT + 16;
  let ly = TOP + 8;
  const legend: string[] = [];
  const line = (content: string) => {
    legend.push(content);
    ly += 18;
  };
  for (const [i, k] of ks.entries()) {
    const name = kNames.get(k) ?? `k = ${k}`;
    const dash = DASHES[i % DASHES.length];
    line(
      `<line x1="${lx}" y1="${ly}" x2="${lx + 22}" y2="${ly}" stroke="#64748b" stroke-width="1.5"${dash ? ` stroke-dasharray="${dash}"` : ""}/>` +
        `${shape(shapeOf(k), lx + 32, ly, "#64748b")}<text x="${lx + 44}" y="${ly + 4}" font-size="11">g_${k}, ${esc(name)}</text>`,
    );
  }
  ly += 4;
  for (const m of models.slice(0, MAX_MODELS_NAMED)) {
    const { colour } = colourOf.get(m)!;
    const name = m.length > 30 ? `${m.slice(0, 29)}…` : m;
    line(
      `<rect x="${lx}" y="${ly - 6}" width="10" height="10" fill="${colour}"/><text x="${lx + 16}" y="${ly + 3}" font-size="11"><title>${esc(m)}</title>${esc(name)}</text>`,
    );
  }
  if (models.length > MAX_MODELS_NAMED) line(`<text x="${lx}" y="${ly + 3}" font-size="11">and ${models.length - MAX_MODELS_NAMED} more models</text>`);
  const height = Math.max(H, ly + 8);
  return `<h2>${esc(title)}</h2><svg width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" role="img" aria-label="${esc(title)}: S_fact against S_E per group, with the upper bound">${grid}<rect x="${LEFT}" y="${TOP}" width="${W - LEFT - RIGHT}" height="${H - TOP - BOTTOM}" fill="none" stroke="#94a3b8"/>${curves}${dots}<text x="${f1(x(0.5))}" y="${H - 10}" text-anchor="middle" font-size="12">S_fact (0 – 1): the share of answers naming the true class</text><text x="14" y="${f1(y(0.5))}" font-size="12" transform="rotate(-90 14 ${f1(y(0.5))})" text-anchor="middle">S_E (0 – 1): how evenly classes are chosen</text>${legend.join("")}</svg><p class="iv">Each point one group (model · test · context); hover it for its values. A curve is the upper bound g_k: the highest S_E a model with that S_fact can have among k classes; a group's d is its distance to its own curve (docs/scoring.md).</p>`;
}

/** FACT-OR-FAIR's attributes: their classes (the curve each group's d is measured to) */
const FOF_K = new Map<unknown, number>([
  ["gender", 2],
  ["race", 4],
]);

/** The plane of a bundle that names its quantile (./report-charts.ts): ticks, curves, the models in a legend. */
export function factOrFairPlane(groups: Obj[]): string {
  const points = groups
    .filter((g) => typeof g.sFact === "number" && typeof g.sE === "number")
    .map((g) => ({
      model: String(g.model),
      group: [g.test, g.context, g.attribute].filter(Boolean).join(" · "),
      k: FOF_K.get(g.attribute) ?? null,
      sFact: g.sFact as number,
      sE: g.sE as number,
    }));
  return planeSvg("S_fact against S_E, the paper's plane", points, new Map([...FOF_K].map(([a, k]) => [k, String(a)])));
}

/**
 * A suite's charts of the plane: each bars view of S_fact and S_E per group (a content set's, one per declared
 * attribute) drawn as the plane, its k read from the view's title "… (k = 3): …" (a view carries no k of its own, and
 * adding one would change what older bundles state).
 */
export function viewPlanes(views: Obj[]): string {
  return views
    .filter((v) => v.kind === "bars" && JSON.stringify(((v.series as Obj[]) ?? []).map((s) => s.id)) === JSON.stringify(["sFact", "sE"]))
    .map((v) => {
      const k = /\(k = (\d+)\)/.exec(String(v.title))?.[1];
      const points = ((v.data as Obj[]) ?? []).flatMap((d) => {
        const values = (d.values as Obj) ?? {};
        if (typeof values.sFact !== "number" || typeof values.sE !== "number") return [];
        const [model, ...rest] = String(d.label).split(" · ");
        return [{ model, group: rest.join(" · "), k: k ? Number(k) : null, sFact: values.sFact, sE: values.sE }];
      });
      return planeSvg(String(v.title), points);
    })
    .join("\n");
}

/** The paper's plane: each group's S_fact (x) against S_E (y), one point per group, as static SVG (no script). */
export function planeChart(groups: Obj[]): string {
  const points = groups.filter((g) => typeof g.sFact === "number" && typeof g.sE === "number");
  if (!points.length) return "";
  const [w, h, pad] = [520, 360, 40];
  const x = (v: number) => pad + v * (w - 2 * pad);
  const y = (v: number) => h - pad - v * (h - 2 * pad);
  const dots = points.map((g) => {
    const label = [g.model, g.test, g.context, g.attribute].filter(Boolean).join(" · ");
    return `<circle cx="${x(g.sFact as number).toFixed(1)}" cy="${y(g.sE as number).toFixed(1)}" r="4" fill="${g.attribute === "race" ? "#7c3aed" : "#0891b2"}"><title>${esc(label)}: S_fact ${num(g.sFact)}, S_E ${num(g.sE)}</title></circle>`;
  });
  return `<h2>S_fact against S_E</h2><svg width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="S_fact against S_E per group"><rect x="${pad}" y="${pad}" width="${w - 2 * pad}" height="${h - 2 * pad}" fill="none" stroke="#cbd5e1"/><text x="${w / 2}" y="${h - 8}" text-anchor="middle" font-size="12">S_fact (0 – 1)</text><text x="12" y="${h / 2}" font-size="12" transform="rotate(-90 12 ${h / 2})" text-anchor="middle">S_E (0 – 1)</text>${dots.join("")}</svg><p class="iv">Gender in blue, race in violet; hover a point for its group.</p>`;
}
