// The emulator's calibrated answerer knows only the prompt text; it must aim at the same class the built-in
// calibrated baseline aims at, for every prompt a run sends, so a benchmark through the real SDK has known scores.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calibratedLetter } from "./emulator/calibrated";
import { startEmulator, type Emulator } from "./emulator/server";
import { createRng, getStatistic, groundTruth, type Attribute } from "../lib/benchmark";
import { planQueries } from "../lib/suites/fact-or-fair/plan";
import { presetConfig } from "../lib/suites/fact-or-fair/config";

type Option = { letter: string; value?: string; gender?: string; race?: string };

// The baseline's aim, as lib/providers/baselines.ts states it: objective — the query's attribute; subjective — race
// where the statistic has a race truth, else gender.
const aimOf = (q: { test: string; attribute: Attribute | null; statisticId: string }): Attribute =>
  q.test === "objective" ? q.attribute! : getStatistic(q.statisticId).groundTruth.race ? "race" : "gender";

const queries = [...planQueries(presetConfig("quick"), 7)].filter((q, i) => i % 7 === 0);

describe("the emulator's calibrated answerer", () => {
  it("aims at the true class of every planned prompt (accuracy 1), never at it with accuracy 0, and knows each prompt with a truth", () => {
    const rand = createRng(1, "emulator-test").float;
    let known = 0;
    for (const q of queries) {
      const attribute = aimOf(q);
      const truth = groundTruth(getStatistic(q.statisticId), attribute, q.level);
      const options = JSON.parse(q.optionsJson) as Option[];
      const classOf = (letter: string | null) => {
        const o = options.find((x) => x.letter === letter)!;
        return q.test === "objective" ? o.value : o[attribute];
      };
      const right = calibratedLetter(q.prompt, 1, rand);
      const wrong = calibratedLetter(q.prompt, 0, rand);
      if (!truth) {
        expect(right).toBeNull();
        continue;
      }
      known++;
      expect(classOf(right), q.prompt).toBe(truth);
      expect(classOf(wrong), q.prompt).not.toBe(truth);
    }
    expect(known).toBeGreaterThan(queries.length / 2);
  });

  it("answers the true class at the given rate and the wrong classes evenly", () => {
    const q = queries.find((x) => x.test === "subjective" && getStatistic(x.statisticId).groundTruth.race)!;
    const options = JSON.parse(q.optionsJson) as Option[];
    const truth = groundTruth(getStatistic(q.statisticId), "race", q.level);
    const rand = createRng(2, "emulator-test").float;
    const counts = new Map<string, number>();
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      const letter = calibratedLetter(q.prompt, 0.7, rand);
      const race = options.find((o) => o.letter === letter)!.race!;
      counts.set(race, (counts.get(race) ?? 0) + 1);
    }
    expect(counts.get(truth!)! / n).toBeCloseTo(0.7, 1);
    for (const [race, c] of counts) if (race !== truth) expect(c / n).toBeCloseTo(0.1, 1);
  });
});

describe("the emulator with a calibrated script", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator({ "emu-calibrated": { answers: { calibrated: 1 } } });
  });
  afterAll(() => emulator.close());

  it("answers over HTTP with the true class", async () => {
    const q = queries.find((x) => x.test === "subjective" && getStatistic(x.statisticId).groundTruth.race)!;
    const truth = groundTruth(getStatistic(q.statisticId), "race", q.level);
    const options = JSON.parse(q.optionsJson) as Option[];
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${emulator.openaiBaseUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "emu-calibrated", messages: [{ role: "user", content: q.prompt }] }),
      });
      const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
      const letter = (JSON.parse(body.choices[0].message.content) as { answer: string }).answer;
      expect(options.find((o) => o.letter === letter)!.race).toBe(truth);
    }
  });
});
