// The rows of a content-set run: for each repeat, every prompt the set's preview gives for that repeat (the same
// renderer, seed and stream keys, so a preview is exactly what is sent), kept where the config asks for its test
// and context. Objective rows carry the attribute asked and the lettered classes; subjective rows the people, each
// with a class per attribute; every row its statistic's true classes per attribute, as planned.
import { COT_TYPICAL_OUT_TOKENS } from "../../benchmark/cot";
import { previewPrompts } from "../../content/preview";
import type { SuitePlannedQuery } from "../types";
import type { OwnConfig } from "./config";
import type { OwnContent } from "./content";

/** The true classes per attribute of a statistic ({highest, lowest}), as a query carries them. */
export function truthsOf(content: OwnContent, statisticId: string): Record<string, { highest: string; lowest: string }> {
  const s = content.set.statistics?.find((x) => x.id === statisticId);
  if (!s) throw new Error(`content ${content.version} has no statistic ${statisticId}`);
  return Object.fromEntries(Object.entries(s.groundTruth).map(([a, g]) => [a, { highest: g.highest, lowest: g.lowest }]));
}

export function plannedPerModelOwn(config: OwnConfig, content: OwnContent): number {
  let n = 0;
  for (const p of previewPrompts(content.set, 0)) {
    if (!config.tests.includes(p.test)) continue;
    if (p.test === "objective") n += config.objectiveRepeats;
    else if (config.contexts.includes(p.context!)) n += config.subjectiveRepeats;
  }
  return n;
}

/** Input and output tokens per model for the launch estimate: each prompt measured (chars / 4), a short JSON out. */
export function chatTokensOwn(config: OwnConfig, content: OwnContent): { input: number; output: number } {
  let input = 0;
  let queries = 0;
  for (const p of previewPrompts(content.set, 0, 0, config.cot && content.set.templates.reasonFirst !== undefined)) {
    const n = !config.tests.includes(p.test)
      ? 0
      : p.test === "objective"
        ? config.objectiveRepeats
        : config.contexts.includes(p.context!)
          ? config.subjectiveRepeats
          : 0;
    input += n * Math.ceil(p.prompt.length / 4);
    queries += n;
  }
  // a chain-of-thought answer is an explanation and its JSON, not a letter (lib/benchmark/cot.ts)
  return { input, output: queries * (config.cot ? COT_TYPICAL_OUT_TOKENS : 8) };
}

export function* planOwn(config: OwnConfig, content: OwnContent, seed: number): Generator<SuitePlannedQuery> {
  const truths = new Map<string, string>();
  const truthJson = (id: string) => truths.get(id) ?? (truths.set(id, JSON.stringify(truthsOf(content, id))), truths.get(id)!);
  // The words an answer may name an objective option by (the fallback parser, read.ts): its word, option text,
  // aliases and id, in the content's language.
  const words = (classId: string, attributeId: string) => {
    const c = content.set.attributes.find((a) => a.id === attributeId)!.classes.find((x) => x.id === classId)!;
    return [...new Set([c.word, c.option ?? c.word, ...(c.aliases ?? []), c.id])];
  };
  const repeats = Math.max(
    config.tests.includes("objective") ? config.objectiveRepeats : 0,
    config.tests.includes("subjective") ? config.subjectiveRepeats : 0,
  );
  for (let r = 0; r < repeats; r++)
    for (const p of previewPrompts(content.set, seed, r, config.cot)) {
      if (!config.tests.includes(p.test)) continue;
      if (p.test === "objective" ? r >= config.objectiveRepeats : r >= config.subjectiveRepeats || !config.contexts.includes(p.context!)) continue;
      yield {
        role: "subject",
        modality: "llm",
        test: p.test,
        context: p.context,
        statisticId: p.statisticId,
        level: p.level,
        attribute: p.attribute,
        scenarioIndex: p.scenarioIndex,
        repeatIndex: r,
        prompt: p.prompt,
        optionsJson: JSON.stringify(p.test === "objective" ? p.options!.map((o) => ({ ...o, words: words(o.value, p.attribute!) })) : p.people),
        identityJson: p.identity ? JSON.stringify(p.identity) : null,
        groundTruthJson: truthJson(p.statisticId),
      };
    }
}
