// The registry: one line per suite. Nothing else in the product names a suite (tests/suites-isolation checks it).
import type { AnySuite } from "./types";
import { factOrFair } from "./fact-or-fair";

export const SUITES: readonly AnySuite[] = [
  factOrFair,
];
