// Joint replicates for rank intervals of suites whose scores are statistics over resampling units (entries, prompts,
// η pairs) rather than FACT-OR-FAIR's design cells (ranks.ts): every arm — a (run, model) in one group — is resampled
// in the same replicate; arms of the same content draw the *same* units (n − 1 of the n any of them has, Rao–Wu), so
// what a unit does to every model moves every arm alike and cannot reorder them; arms of other content draw their own.
// rankIntervals (ranks.ts) then reads each arm's ranks over the replicates.
import { fastRng } from "./fast-rng";

export interface UnitArm<T> {
  key: string;
  /** arms with the same content share their unit draws */
  content: string;
  units: ReadonlyMap<string, T>;
  /** the score over a sample of units (null: undefined on it) */
  stat(sample: readonly T[]): number | null;
}

/** Each arm's point and replicates (NaN where the score is undefined on a resample). */
export function unitRankReplicates<T>(
  arms: ReadonlyArray<UnitArm<T>>,
  resamples: number,
  seed: number,
  key: string,
): Array<{ key: string; point: number | null; replicates: Float64Array }> {
  const byContent = new Map<string, string[]>();
  for (const a of arms) {
    const ids = new Set(byContent.get(a.content) ?? []);
    for (const id of a.units.keys()) ids.add(id);
    byContent.set(a.content, [...ids]);
  }
  for (const [c, ids] of byContent) byContent.set(c, ids.sort());
  const rng = fastRng(seed, `unit-ranks|${key}`);
  const out = arms.map((a) => ({ key: a.key, point: a.stat([...a.units.values()]), replicates: new Float64Array(resamples) }));
  const draws = new Map<string, string[]>();
  for (let b = 0; b < resamples; b++) {
    draws.clear();
    for (const [c, ids] of byContent) {
      const d = new Array<string>(Math.max(1, ids.length - 1));
      for (let i = 0; i < d.length; i++) d[i] = ids[rng.below(ids.length)];
      draws.set(c, d);
    }
    arms.forEach((a, i) => {
      const sample: T[] = [];
      for (const id of draws.get(a.content)!) {
        const u = a.units.get(id);
        if (u !== undefined) sample.push(u);
      }
      out[i].replicates[b] = (sample.length ? a.stat(sample) : null) ?? NaN;
    });
  }
  return out;
}
