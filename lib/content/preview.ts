// Every distinct prompt a content set sends for a seed and repeat (repeat 0 of each query kind: what a team reads
// before it saves a set, and what `fof content preview` prints), with the options or people as shown — the rows the
// planner of content-set runs writes, so a preview is exactly what a run sends. Stream keys follow the suite's
// (objective|…, subjective|…) with the set's id in front, so two sets never share a stream and one seed one prompt.
import { createRng } from "../benchmark/rng";
import { declaredContexts, renderObjective, renderSubjective, type ContentContext, type ContentLevel } from "./render";
import type { DrawnPerson } from "./people";
import { PAPER_SET_ID } from "./paper";
import type { ContentSetInput } from "./schema";

export interface PreviewPrompt {
  key: string;
  test: "objective" | "subjective";
  statisticId: string;
  level: ContentLevel;
  attribute: string | null;
  scenarioIndex: number | null;
  context: ContentContext | null;
  prompt: string;
  /** objective: the lettered classes as shown (class ids); null for a subjective prompt */
  options: Array<{ letter: string; value: string }> | null;
  /** subjective: the people as shown, each with a class per attribute; null for an objective prompt */
  people: DrawnPerson[] | null;
  /** the attribution / in-group context's drawn identity (class per attribute), else null */
  identity: Record<string, string> | null;
}

const LEVELS: ContentLevel[] = ["highest", "lowest"];

// The paper's own declaration streams as the paper's suite does (lib/benchmark/prompts.ts queryStreamKey), so a run
// of it through the content-set path sends the very prompts, and draws the very people, of a FACT-OR-FAIR run.
function contentStreamKey(setId: string, key: string): string {
  return setId === PAPER_SET_ID ? key : `content|${setId}|${key}`;
}

/** `cot`: a chain-of-thought run's prompts (the set's reasonFirst line). */
export function* previewPrompts(set: ContentSetInput, seed: number, repeatIndex = 0, cot = false): Generator<PreviewPrompt> {
  for (const s of set.statistics ?? [])
    for (const level of LEVELS) {
      for (const a of set.attributes) {
        if (!s.groundTruth[a.id] && !set.objectiveWithoutTruth) continue;
        const key = `objective|${s.id}|${a.id}|${level}|${repeatIndex}`;
        const r = renderObjective(set, s, a.id, level, createRng(seed, contentStreamKey(set.id, key)), cot);
        yield {
          key,
          test: "objective",
          statisticId: s.id,
          level,
          attribute: a.id,
          scenarioIndex: null,
          context: null,
          prompt: r.prompt,
          options: r.options,
          people: null,
          identity: null,
        };
      }
      for (let i = 0; i < s.scenarios[level].length; i++)
        for (const context of declaredContexts(set)) {
          const key = `subjective|${s.id}|${level}|${i}|${context}|${repeatIndex}`;
          const r = renderSubjective(set, s, level, i, context, createRng(seed, contentStreamKey(set.id, key)), cot);
          yield {
            key,
            test: "subjective",
            statisticId: s.id,
            level,
            attribute: null,
            scenarioIndex: i,
            context,
            prompt: r.prompt,
            options: null,
            people: r.people,
            identity: r.identity,
          };
        }
    }
}

/** One page of a set's prompts for a seed: the first `limit` (as shown: key, kind, cell, context, text) and how many in all. */
export function promptPage(set: ContentSetInput, seed: number, limit: number) {
  const items = [];
  let total = 0;
  for (const p of previewPrompts(set, seed))
    if (total++ < limit)
      items.push({ key: p.key, test: p.test, statisticId: p.statisticId, level: p.level, attribute: p.attribute, context: p.context, prompt: p.prompt });
  return { seed, total, shown: items.length, items };
}
