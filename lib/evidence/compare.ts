// A bundle's stated scores against the verifier's recomputed ones, value by value: every number, string and null
// of the scores tree, named by a readable path (a group by its model, test, context and attribute; a view row by its
// labels). Numbers agree to 1e-12 relative (the same code and seed give the same doubles; the margin only absorbs
// a last-bit difference of a libm on another machine); everything else exactly.
//
// A path must name one place in the tree, whatever the keys: scores.json is the bundle writer's, and a key such as
// "groups[m · subjective · race].sFact" set beside the real nested group once gave the true value the nested one's
// path, so a page drawn from the nested (made-up) values verified (hostile re-test, 2026-12-07). Keys and labels are
// therefore written with their delimiters escaped — `.` `[` `]` `#` `\` — so two different places never share a path.
export interface ScoreCheck {
  path: string;
  stated: unknown;
  recomputed: unknown;
  equal: boolean;
}

function label(x: unknown, i: number): string {
  if (x && typeof x === "object" && !Array.isArray(x)) {
    const o = x as Record<string, unknown>;
    if (Array.isArray(o.labels)) return `[${(o.labels as unknown[]).join(" · ")}]`;
    if (typeof o.look === "number") return `[look ${o.look}]`;
    const parts = ["model", "modality", "test", "context", "attribute", "statisticId", "level", "group", "metric", "title", "id"]
      .map((k) => o[k])
      .filter((v) => typeof v === "string" && v);
    if (parts.length) return `[${parts.join(" · ")}]`;
  }
  return `[${i}]`;
}

/** A key or label with the path's delimiters escaped, so a path names exactly one place. */
const escaped = (s: string) => s.replace(/[\\.[\]#]/g, (c) => `\\${c}`);

function leaves(x: unknown, at: string, out: Map<string, unknown>) {
  // an empty list or object is a value too: a row of nothing added to a table must not pass unseen
  if (x && typeof x === "object" && Object.keys(x).length === 0) x = Array.isArray(x) ? "[]" : "{}";
  if (Array.isArray(x)) {
    // two elements with the same label keep apart by position: a value is never hidden behind another's path
    const seen = new Map<string, number>();
    x.forEach((v, i) => {
      const l = label(v, i);
      const n = (seen.get(l) ?? 0) + 1;
      seen.set(l, n);
      leaves(v, `${at}[${escaped(l.slice(1, -1))}]${n > 1 ? `#${n}` : ""}`, out);
    });
  } else if (x && typeof x === "object") for (const [k, v] of Object.entries(x)) leaves(v, at ? `${at}.${escaped(k)}` : escaped(k), out);
  else if (out.has(at)) throw new Error(`two values at ${at}`);
  else out.set(at, x);
}

const same = (a: unknown, b: unknown) =>
  typeof a === "number" && typeof b === "number" ? a === b || Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a)) : a === b;

/** Two trees of values compared leaf by leaf (the recomputed one as the bundle would hold it: through JSON). */
export function compareTrees(stated: unknown, recomputed: unknown): ScoreCheck[] {
  const a = new Map<string, unknown>();
  const b = new Map<string, unknown>();
  try {
    leaves(stated, "", a);
  } catch (e) {
    return [{ path: "(the stated tree)", stated: (e as Error).message, recomputed: "one value per place", equal: false }];
  }
  leaves(JSON.parse(JSON.stringify(recomputed ?? null)), "", b);
  const out: ScoreCheck[] = [];
  for (const [path, v] of a) out.push({ path, stated: v, recomputed: b.has(path) ? b.get(path) : "(absent)", equal: b.has(path) && same(v, b.get(path)) });
  for (const [path, v] of b) if (!a.has(path)) out.push({ path, stated: "(absent)", recomputed: v, equal: false });
  return out;
}

/**
 * scores.json against the recomputation: every value of its scores, the counts, and the words report.html prints
 * beside them (the method and what the intervals are about). `requireCounts`: the run was launched since runs record
 * their scoring rules, so its bundle was written with counts — one without them dropped them (and with them the
 * report's table of failures).
 */
export function compareScores(
  stated: { scores?: unknown; reviewedScores?: unknown; counts?: unknown; seed?: unknown; resamples?: unknown; method?: unknown; target?: unknown },
  recomputed: { scores: unknown; reviewedScores?: unknown; counts?: unknown; seed: unknown; resamples: unknown; method: unknown; target: unknown },
  opts: { requireCounts?: boolean } = {},
): ScoreCheck[] {
  const both = stated.reviewedScores !== undefined || recomputed.reviewedScores !== undefined;
  // Bundles written before counts were stated have none: nothing to compare there (their report shows none either).
  const counted = stated.counts !== undefined || opts.requireCounts === true;
  const tree = (x: typeof stated) => ({
    seed: x.seed,
    resamples: x.resamples,
    method: x.method,
    target: x.target,
    // what each model's queries came to (answered, refused, failed, not called): stated, and counted again
    ...(counted ? { counts: x.counts ?? null } : {}),
    scores: x.scores,
    ...(both ? { reviewedScores: x.reviewedScores ?? null } : {}),
  });
  return compareTrees(tree(stated), tree(recomputed));
}
