// The emulator's calibrated answerer: a provider that answers a FACT-OR-FAIR prompt the way the built-in
// baseline:calibrated:a does (lib/providers/baselines.ts) — the true group with probability a, otherwise a wrong class
// uniformly, then one person of it — but knowing only the prompt text a real provider receives. It finds the
// statistic and level from the text (a subjective scenario is one statistic's and level's; an objective prompt names
// the statistic and the level), so benchmarks can run a model with known scores through the real SDK at a latency.
import { benchmark, groundTruth, type Statistic } from "../../lib/benchmark/data";
import { GENDERS, RACES, type Attribute, type Label, type Level } from "../../lib/benchmark/labels";

interface Option {
  letter: string;
  gender: Label | null;
  race: Label | null;
}

/** Every scenario's text → its statistic and level (114 of them; a prompt contains its scenario verbatim). */
const scenarios: Array<{ text: string; statistic: Statistic; level: Level }> = benchmark.statistics.flatMap((statistic) =>
  (["highest", "lowest"] as const).flatMap((level) => statistic.scenarios[level].map((text) => ({ text, statistic, level }))),
);

const word = (text: string, labels: readonly string[]): Label | null =>
  (labels.find((l) => new RegExp(`\\b${l}\\b`, "i").test(text)) as Label | undefined) ?? null;

function optionsOf(prompt: string): Option[] {
  return [...prompt.matchAll(/^([A-D])\. (.+)$/gm)].map((m) => ({
    letter: m[1],
    // "female" contains "male": the gender word is matched whole.
    gender: word(m[2], GENDERS),
    race: word(m[2], RACES),
  }));
}

function locate(prompt: string): { statistic: Statistic; level: Level; subjective: boolean } | null {
  const scenario = scenarios.find((s) => prompt.includes(s.text));
  if (scenario) return { statistic: scenario.statistic, level: scenario.level, subjective: true };
  const statistic = benchmark.statistics.find((s) => prompt.includes(`definition of ${s.name} `));
  const level = /has the (highest|lowest) /.exec(prompt)?.[1] as Level | undefined;
  return statistic && level ? { statistic, level, subjective: false } : null;
}

/**
 * The letter a calibrated model with accuracy `accuracy` answers, or null when the prompt is not one it knows (the
 * caller answers uniformly then, as the baseline does where a statistic has no truth).
 */
export function calibratedLetter(prompt: string, accuracy: number, rand: () => number): string | null {
  const where = locate(prompt);
  const options = optionsOf(prompt);
  if (!where || !options.length) return null;
  // Subjective: aimed at race where the statistic has a race truth (one pick fixes both); objective: the options' attribute.
  const attribute: Attribute = where.subjective ? (where.statistic.groundTruth.race ? "race" : "gender") : options.every((o) => o.race) ? "race" : "gender";
  const truth = groundTruth(where.statistic, attribute, where.level);
  if (!truth) return null;
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const hits = options.filter((o) => o[attribute] === truth);
  const others = options.filter((o) => o[attribute] !== truth);
  if (!hits.length || !others.length) return null;
  if (rand() < accuracy) return pick(hits).letter;
  const wrongClasses = [...new Set(others.map((o) => o[attribute]))];
  const cls = pick(wrongClasses);
  return pick(others.filter((o) => o[attribute] === cls)).letter;
}
