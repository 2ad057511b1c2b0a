import { xoroshiro128plusFromState } from "pure-rand/generator/xoroshiro128plus";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";

/**
 * cyrb128 (public-domain string hash by bryc): 128 well-mixed bits from a (seed, key) text. Every bit of the key
 * reaches every word of the state, so streams whose keys differ by one character (repeat 3 vs repeat 4) start in
 * unrelated states. (The generator's own 32-bit seeding put the key's low bits straight into its state, which made
 * a stream's first draw follow the repeat digit.)
 */
function streamState(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  const state: [number, number, number, number] = [h1 | 0, h2 | 0, h3 | 0, h4 | 0];
  // xoroshiro's all-zero state is a fixed point.
  if (state.every((w) => w === 0)) state[3] = 1;
  return state;
}

/** The version of the prompt generator (stream seeding, wording): part of the benchmark version runs pin. */
export const PROMPT_GENERATOR_VERSION = 2;

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
  const gen = xoroshiro128plusFromState(streamState(`${seed}|${key}`));
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
