// Every prompt of a content set, from its templates and a seeded stream: the objective question about one attribute,
// and the subjective scenario with its people and (optionally) one of the three cognitive-error contexts. Pure, so
// the preview a team reads before saving, the planner and a verifier all produce the same text for the same seed.
import type { Rng } from "../benchmark/rng";
import { drawPeople, LETTERS, type DrawnPerson } from "./people";
import { fill, type Slot } from "./placeholders";
import type { AttributeInput, ContentSetInput, StatisticInput } from "./schema";

export type ContentLevel = "highest" | "lowest";
export type ContentContext = "baseline" | "representativeness" | "attribution" | "ingroup";

export interface RenderedObjective {
  prompt: string;
  options: Array<{ letter: string; value: string }>;
}

export interface RenderedSubjective {
  prompt: string;
  people: DrawnPerson[];
  identity: Record<string, string> | null;
  contextText: string | null;
}

const classOf = (a: AttributeInput, id: string) => {
  const c = a.classes.find((x) => x.id === id);
  if (!c) throw new Error(`${a.id} has no class ${id}`);
  return c;
};

/** The value of an attribute slot for a person or identity: the class's word, or the named form of it. */
function attributeValue(set: ContentSetInput, classes: Record<string, string>, slot: Slot): string | null {
  const a = set.attributes.find((x) => x.id === slot.name);
  if (!a || classes[a.id] === undefined) return null;
  const c = classOf(a, classes[a.id]);
  return slot.form === null ? c.word : (c.forms?.[slot.form] ?? null);
}

/** The answer line; `cot`: the set's reason-first line instead (a chain-of-thought run; refused at launch without one). */
function answerLine(set: ContentSetInput, count: number, cot = false): string {
  const template = cot ? set.templates.reasonFirst : set.templates.answer;
  if (template === undefined) throw new Error(`content set ${set.id} has no reasonFirst template: it cannot be run with chain of thought`);
  return fill(template, (s) => (s.name === "letters" ? LETTERS.slice(0, count).join(", ") : null));
}

export function renderObjective(
  set: ContentSetInput,
  statistic: StatisticInput,
  attributeId: string,
  level: ContentLevel,
  rng: Rng,
  cot = false,
): RenderedObjective {
  const a = set.attributes.find((x) => x.id === attributeId);
  if (!a) throw new Error(`no attribute ${attributeId}`);
  const options = rng.shuffle(a.classes).map((c, i) => ({ letter: LETTERS[i], value: c.id, text: c.option ?? c.word }));
  const question = fill(set.templates.objective, (s) =>
    s.name === "statistic"
      ? statistic.name
      : s.name === "level"
        ? set.templates.levels[level]
        : s.name === "definition"
          ? (statistic.definitionInSentence ?? statistic.definition)
          : s.name === "region"
            ? set.region
            : null,
  );
  const prompt = [question, ...options.map((o) => `${o.letter}. ${o.text}`), answerLine(set, options.length, cot)].join("\n");
  return { prompt, options: options.map(({ letter, value }) => ({ letter, value })) };
}

function representativeness(set: ContentSetInput, statistic: StatisticInput): string {
  const r = set.templates.contexts!.representativeness!;
  const parts = set.attributes
    .filter((a) => statistic.groundTruth[a.id])
    .map((a) => {
      const g = statistic.groundTruth[a.id];
      return fill(r.part, (s) =>
        s.name === "attribute"
          ? a.noun
          : s.name === "statistic"
            ? statistic.name
            : s.name === "high"
              ? classOf(a, g.highest).word
              : s.name === "low"
                ? classOf(a, g.lowest).word
                : null,
      );
    });
  return fill(r.sentence, (s) =>
    s.name === "parts" ? parts.join(r.joiner) : s.name === "region" ? set.region : s.name === "statistic" ? statistic.name : null,
  );
}

/** The contexts this set declares, baseline always. */
export function declaredContexts(set: ContentSetInput): ContentContext[] {
  const c = set.templates.contexts;
  return ["baseline", ...(["representativeness", "attribution", "ingroup"] as const).filter((x) => c?.[x] !== undefined)];
}

export function renderSubjective(
  set: ContentSetInput,
  statistic: StatisticInput,
  level: ContentLevel,
  scenarioIndex: number,
  context: ContentContext,
  rng: Rng,
  cot = false,
): RenderedSubjective {
  const scenario = statistic.scenarios[level][scenarioIndex];
  if (scenario === undefined) throw new RangeError(`${statistic.id} has no ${level} scenario #${scenarioIndex}`);
  if (!declaredContexts(set).includes(context)) throw new Error(`content set ${set.id} does not declare the ${context} context`);
  // People first, so that the same seed gives the same people whatever the context.
  const t = set.templates;
  const people = drawPeople(set.attributes, t.names, t.ages, rng);
  let identity: Record<string, string> | null = null;
  let contextText: string | null = null;
  if (context === "representativeness") contextText = representativeness(set, statistic);
  if (context === "attribution" || context === "ingroup") {
    const drawn: Record<string, string> = {};
    for (const a of set.attributes) drawn[a.id] = rng.pick(a.classes).id;
    identity = drawn;
    const who = fill(t.contexts!.identity!, (s) => attributeValue(set, drawn, s));
    contextText =
      context === "attribution"
        ? fill(t.contexts!.attribution!, (s) => (s.name === "identity" ? who : s.name === "behaviour" ? statistic.attribution![level] : null))
        : fill(t.contexts!.ingroup!, (s) => (s.name === "identity" ? who : null));
  }
  const describe = (p: DrawnPerson) =>
    fill(t.person, (s) =>
      s.name === "name" && s.form === null ? p.name : s.name === "age" && s.form === null && p.age !== null ? String(p.age) : attributeValue(set, p.classes, s),
    );
  const prompt = [
    ...(contextText ? [contextText, ""] : []),
    scenario,
    "",
    ...people.map((p) => `${p.letter}. ${describe(p)}`),
    "",
    answerLine(set, people.length, cot),
  ].join("\n");
  return { prompt, people, identity, contextText };
}
