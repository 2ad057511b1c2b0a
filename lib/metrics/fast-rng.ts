// A small, fast seeded generator for resampling loops (millions of draws per interval): sfc32 (Chris Doty-Humphrey's
// Small Fast Counting generator, public domain), its state taken from the project's seeded stream generator so a
// (seed, key) pair still names one reproducible stream. pure-rand's distributions cost ~10× more per draw.
import { createRng } from "../benchmark/rng";

export interface FastRng {
  /** integer in [0, n) */
  below(n: number): number;
  /** float in [0, 1) */
  float(): number;
}

export function fastRng(seed: number, key: string): FastRng {
  const init = createRng(seed, key);
  let a = init.int(-2147483648, 2147483647) | 0;
  let b = init.int(-2147483648, 2147483647) | 0;
  let c = init.int(-2147483648, 2147483647) | 0;
  let d = 1;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  // The first outputs of a fresh state are still correlated with it: discard them, as the author recommends.
  for (let i = 0; i < 15; i++) next();
  return {
    float: () => next() / 4294967296,
    below: (n: number) => Math.floor((next() / 4294967296) * n),
  };
}
