// Chain-of-thought runs (issue #67 item 1): the same questions with the reasoning asked first, the answer read from the
// final JSON, the explanation derived from the raw reply; and the explainer test model's planted errors at known rates.
import { describe, expect, it } from "vitest";
import { parseAnswer } from "@/lib/benchmark/parse";
import { COT_MAX_TOKENS, COT_TYPICAL_OUT_TOKENS, explanationOf } from "@/lib/benchmark/cot";
import { renderLlmQuery } from "@/lib/benchmark/query";
import { EXPLAINER_RATES, explainerText } from "@/lib/providers/explainer";
import { EXPLANATION_TAGS as EXPLANATION_ERRORS } from "@/lib/explanations/tags";
import { baselineProvider } from "@/lib/providers/baselines";
import { planQueries } from "@/lib/suites/fact-or-fair/plan";
import { presetConfig } from "@/lib/suites/fact-or-fair/config";
import { chatTokensFof } from "@/lib/suites/fact-or-fair/size";
import { suiteOf } from "@/lib/suites";
import { benchmark } from "@/lib/benchmark";

describe("chain-of-thought queries", () => {
  it("ask the same question with the same options and people, only the answer instruction differing", () => {
    const spec = {
      test: "subjective" as const,
      statisticId: benchmark.statistics[0].id,
      level: "highest" as const,
      scenarioIndex: 1,
      context: "attribution" as const,
      repeatIndex: 0,
    };
    const plain = renderLlmQuery(spec, 7);
    const cot = renderLlmQuery(spec, 7, benchmark, true);
    expect(cot.options).toEqual(plain.options);
    expect(cot.identity).toEqual(plain.identity);
    expect(plain.prompt).toMatch(/Answer with a JSON object only/);
    expect(cot.prompt).toMatch(/Think it through step by step before you answer: first write out your reasoning\. Then end your reply with a JSON object/);
    expect(cot.prompt.split("\n").slice(0, -1)).toEqual(plain.prompt.split("\n").slice(0, -1));
  });

  it("are planned from the run's configuration (off by default), priced as explanations and called with room for them", () => {
    expect(presetConfig("smoke").cot).toBe(false);
    const config = presetConfig("smoke", { cot: true });
    const prompts = [...planQueries(config, 3)].map((q) => q.prompt);
    expect(prompts.every((p) => p.includes("step by step"))).toBe(true);
    expect([...planQueries(presetConfig("smoke"), 3)].some((p) => p.prompt.includes("step by step"))).toBe(false);
    const plainOut = chatTokensFof(presetConfig("smoke"), benchmark).output;
    expect(chatTokensFof(config, benchmark).output).toBe((plainOut / 8) * COT_TYPICAL_OUT_TOKENS);
    expect(suiteOf("fact-or-fair").callSettings(config as never).answerMaxTokens).toBe(COT_MAX_TOKENS);
    expect(suiteOf("fact-or-fair").callSettings(presetConfig("smoke") as never).answerMaxTokens).toBeUndefined();
  });

  it("read the answer from the final JSON and keep everything before it as the explanation", () => {
    const raw = 'Step 1: think.\nStep 2: C looks right.\n```json\n{"answer": "C"}\n```';
    expect(parseAnswer(raw, ["A", "B", "C", "D"])).toEqual({ ok: true, letter: "C" });
    expect(explanationOf(raw)).toBe("Step 1: think.\nStep 2: C looks right.");
    expect(explanationOf("no json at all")).toBe("no json at all");
  });
});

describe("the explainer test model", () => {
  it("plants each error at its stated rate, each in a sentence of its own whose span is known", () => {
    const n = 4000;
    const counts = Object.fromEntries(EXPLANATION_ERRORS.map((e) => [e, 0])) as Record<string, number>;
    for (let i = 0; i < n; i++) {
      const { text, planted } = explainerText({ seed: 11, streamKey: `q${i}`, subjective: true, group: "Asian", letter: "B" });
      for (const p of planted) {
        counts[p.error]++;
        const sentence = text.slice(p.start, p.end);
        expect(sentence).toMatch(/Asian/);
        expect(sentence.endsWith(".")).toBe(true);
      }
    }
    // 4,000 explanations: ±3 binomial sd of a rate of 0.3 is ±0.022
    for (const e of EXPLANATION_ERRORS)
      expect(Math.abs(counts[e] / n - EXPLAINER_RATES[e])).toBeLessThan(3 * Math.sqrt((EXPLAINER_RATES[e] * (1 - EXPLAINER_RATES[e])) / n));
    expect(explainerText({ seed: 11, streamKey: "q1", subjective: false, group: null, letter: "A" }).planted).toEqual([]);
  });

  it("answers as calibrated 0.8 does, its reply an explanation then the JSON answer", async () => {
    const [q] = [...planQueries(presetConfig("smoke", { tests: ["subjective"], contexts: ["baseline"], cot: true }), 5)];
    const options = JSON.parse(q.optionsJson) as Array<{ letter: string }>;
    const query = {
      seed: 5,
      streamKey: "s|1",
      test: "subjective" as const,
      statisticId: q.statisticId,
      level: q.level,
      attribute: null,
      context: "baseline",
      scenarioIndex: 0,
      identity: null,
      options,
    } as never;
    const explained = await baselineProvider({ kind: "explainer", scale: 1 }).chat({ query, prompt: q.prompt } as never);
    const calibrated = await baselineProvider({ kind: "calibrated", accuracy: 0.8 }).chat({ query, prompt: q.prompt } as never);
    const letter = parseAnswer(explained.text, ["A", "B", "C", "D"]);
    expect(letter).toEqual(parseAnswer(calibrated.text, ["A", "B", "C", "D"]));
    expect(explanationOf(explained.text)).toMatch(/^Step 1: .* Step 2: weighing what is given, I choose [A-D]\.$/);
  });
});
