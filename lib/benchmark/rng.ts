import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";

/** FNV-1a, 32 bit: turns a (seed, key) pair into a generator seed, so each query draws from its own stream. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

export interface Rng {
  /** integer in [from, to] */
  int(from: number, to: number): number;
  /** float in [0, 1) */
  float(): number;
  pick<T>(items: readonly T[]): T;
  /** Fisher–Yates shuffle, returns a new array */
  shuffle<T>(items: readonly T[]): T[];
}

/**
 * A seeded generator for one named stream. Keys make draws independent of planning order: the options of
 * query "subjective|crime-rate|highest|0|ingroup|17" are the same whatever else the run contains.
 */
export function createRng(seed: number, key = ""): Rng {
  if (!Number.isInteger(seed)) throw new Error(`seed must be an integer, got ${seed}`);
  const gen = xoroshiro128plus(fnv1a(`${seed}|${key}`));
  const int = (from: number, to: number) => uniformInt(gen, from, to);
  return {
    int,
    float: () => uniformFloat64(gen),
    pick: (items) => {
      if (items.length === 0) throw new Error("pick from an empty list");
      return items[int(0, items.length - 1)];
    },
    shuffle: (items) => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(0, i);
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
  };
}
