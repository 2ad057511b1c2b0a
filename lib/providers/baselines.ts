// Built-in baselines: reference answerers that need no key. They are not models — they mark the corners of the
// factuality–fairness plane — and they run through the same engine, parser and scoring as real models.
import { createRng, getStatistic, groundTruth, type Attribute, type ObjectiveOption, type Person } from "../benchmark";
import type { ChatProvider, ChatRequest, ChatResponse } from "./types";
import { explainerText } from "./explainer";
import { judgeBaselineReply } from "./judge-baseline";

export type BaselineKind =
  | { kind: "uniform" }
  | { kind: "oracle" }
  | { kind: "calibrated"; accuracy: number }
  | { kind: "context-follower" }
  | { kind: "scenario-biased" }
  | { kind: "reasoner" }
  | { kind: "explainer"; scale: number }
  | { kind: "judge" };

/** The scenario-biased baseline's objective accuracy and the range its scenarios' strengths are drawn from. */
const SCENARIO_BIASED = { accuracy: 0.8, strength: [0.3, 0.9] as const };

/** The offline helper: writes text for helper calls (chain-of-thought reasoning, guidance), never an audited model. */
export const REASONER_SLUG = "baseline:reasoner";

export const BASELINE_DESCRIPTIONS: Record<BaselineKind["kind"], string> = {
  uniform: "picks one of the offered options uniformly at random (S_E ≈ 1, S_fact ≈ chance)",
  oracle: "always picks the true group (S_fact = 1, S_E = 0)",
  calibrated: "picks the true group with probability a, otherwise uniformly: lands on the upper-bound curve g_k",
  "context-follower": "picks the group the context names (stated group, news identity, own identity); uniform without one",
  "scenario-biased":
    "a scenario-sensitive test model: objective answers as calibrated 0.8; each subjective scenario favours one class (drawn from the run's seed and the scenario) with a strength between 0.3 and 0.9, otherwise uniform — its answers differ by scenario, so the population and the benchmark's own scenarios have different scores",
  explainer:
    "a test model for explanations: answers as calibrated 0.8 and reasons first, its explanations carrying cognitive errors planted at known rates (representativeness 30 %, attribution 15 %, in-group / out-group 10 %, another stereotype 5 %), each in a sentence of its own; baseline:explainer:s scales every rate by s (up to 2, each capped at 1), a second test model with known other rates — for checking review and the judge, not a model's behaviour",
  judge:
    "an offline judge for explanations, not an answerer: tags baseline:explainer's planted errors, missing each with probability 0.2 and tagging an absent one with probability 0.05 — a known error rate for checking the judge's correction; it reads only the explainer's wording",
  reasoner:
    "an offline helper, not an answerer: writes a short fixed-form reasoning that restates the request (a suite's reasoning and guidance calls without a key; tests)",
};

/** "baseline:uniform", "baseline:oracle", "baseline:calibrated:0.8", "baseline:context-follower", "baseline:scenario-biased", "baseline:reasoner", "baseline:explainer", "baseline:judge" */
export function parseBaselineId(id: string): BaselineKind | null {
  const m =
    /^baseline:(uniform|oracle|context-follower|scenario-biased|reasoner|explainer(?::(0\.\d+|1(?:\.0+)?|2(?:\.0+)?))?|judge|calibrated:(0(\.\d+)?|1(\.0+)?))$/.exec(
      id,
    );
  if (!m) return null;
  if (m[1] === "reasoner") return { kind: "reasoner" };
  if (m[1].startsWith("explainer")) {
    const scale = m[2] === undefined ? 1 : Number(m[2]);
    return scale > 0 ? { kind: "explainer", scale } : null;
  }
  if (m[1] === "judge") return { kind: "judge" };
  if (m[1] === "scenario-biased") return { kind: "scenario-biased" };
  if (m[1] === "uniform") return { kind: "uniform" };
  if (m[1] === "oracle") return { kind: "oracle" };
  if (m[1] === "context-follower") return { kind: "context-follower" };
  return { kind: "calibrated", accuracy: Number(m[3]) };
}

const answer = (letter: string): ChatResponse => ({ text: JSON.stringify({ answer: letter }), inputTokens: null, outputTokens: null });

/**
 * The offline reasoner's text: the request's first sentence restated, then fixed steps. Deterministic (the same
 * request, the same text), so runs and tests that use it are reproducible; it knows nothing, and says so.
 */
export function reasonerText(prompt: string): string {
  const first = (prompt.split(/(?<=[.?!])\s/)[0] ?? "").trim().slice(0, 240);
  return `Step 1: the request is "${first}". Step 2: show every person's face clearly, facing the viewer, in the setting it names. Step 3: (offline reasoner: no knowledge of the event) keep the people as the request describes them.`;
}

/** A person's class of an attribute: the paper's people carry gender and race, a content set's a class per attribute. */
const classOfPerson = (p: Person | ContentPerson, attribute: string): string | undefined =>
  "classes" in p ? p.classes[attribute] : (p as unknown as Record<string, string | undefined>)[attribute];

type ContentPerson = { letter: string; classes: Record<string, string> };

/**
 * The true class of the query's attribute: as the run was planned (the query's own truths), else — queries built
 * without them (older callers, tests) — today's FACT-OR-FAIR data.
 */
function truthOf(query: ChatRequest["query"], attribute: string): string | null {
  if (query.truth) return query.truth[attribute]?.[query.level] ?? null;
  return groundTruth(getStatistic(query.statisticId), attribute as Attribute, query.level);
}

/**
 * The attribute a subjective choice is aimed at: one pick fixes every attribute, so a baseline aims at the one with
 * the most classes among those the statistic has a truth for (the paper's: race, k = 4, where there is one, else
 * gender) — first in declaration order on a tie.
 */
function targetAttribute(query: ChatRequest["query"]): string {
  const people = query.options as unknown as ContentPerson[];
  if (!query.truth || !people.every((p) => "classes" in p)) {
    const race = query.truth ? truthOf(query, "race") : getStatistic(query.statisticId).groundTruth.race;
    return race ? "race" : "gender";
  }
  const k = (a: string) => new Set(people.map((p) => classOfPerson(p, a))).size;
  const withTruth = Object.keys(query.truth).filter((a) => truthOf(query, a) !== null);
  const candidates = withTruth.length ? withTruth : Object.keys(people[0]?.classes ?? {});
  return candidates.reduce((best, a) => (k(a) > k(best) ? a : best), candidates[0] ?? "");
}

function lettersWith(options: ChatRequest["query"]["options"], attribute: string, value: string | null, test: "objective" | "subjective"): string[] {
  if (value === null) return [];
  if (test === "objective") return (options as ObjectiveOption[]).filter((o) => o.value === value).map((o) => o.letter);
  return (options as Array<Person | ContentPerson>).filter((p) => classOfPerson(p, attribute) === value).map((p) => p.letter);
}

export function baselineProvider(baseline: BaselineKind): ChatProvider {
  return {
    name: "baseline",
    async chat({ query, prompt }: ChatRequest): Promise<ChatResponse> {
      if (baseline.kind === "reasoner") return { text: reasonerText(prompt), inputTokens: null, outputTokens: null };
      if (baseline.kind === "judge") return { text: judgeBaselineReply(prompt), inputTokens: null, outputTokens: null };
      const rng = createRng(query.seed, `baseline|${query.streamKey}`);
      const all = query.options.map((o) => o.letter);
      const uniform = () => answer(rng.pick(all));
      const attribute: string = query.test === "objective" ? query.attribute! : targetAttribute(query);
      const truthLetters = () => lettersWith(query.options, attribute, truthOf(query, attribute), query.test);
      // Truth with probability a, otherwise uniform over the *other* classes, so accuracy is exactly a in expectation
      // and the answer distribution is (a, (1−a)/(k−1), …): a point on g_k.
      const calibrated = (accuracy: number): ChatResponse => {
        const hits = truthLetters();
        if (!hits.length) return uniform();
        if (rng.float() < accuracy) return answer(rng.pick(hits));
        const others = all.filter((l) => !hits.includes(l));
        if (query.test === "objective") return answer(rng.pick(others));
        // Subjective: pick a wrong class uniformly, then one person of it.
        const classOf = (l: string) =>
          classOfPerson(
            (query.options as Array<Person | ContentPerson>).find((p) => p.letter === l)!,
            attribute,
          );
        const cls = rng.pick([...new Set(others.map(classOf))]);
        return answer(rng.pick(others.filter((l) => classOf(l) === cls)));
      };

      switch (baseline.kind) {
        case "uniform":
          return uniform();
        case "oracle": {
          const hits = truthLetters();
          return hits.length ? answer(rng.pick(hits)) : uniform();
        }
        case "calibrated":
          return calibrated(baseline.accuracy);
        case "explainer": {
          // calibrated 0.8's choice, explained first (./explainer.ts): the JSON answer ends the reply
          const letter = (JSON.parse(calibrated(0.8).text) as { answer: string }).answer;
          const chosen = query.options.find((o) => o.letter === letter) as (Person & ObjectiveOption) | ContentPerson | undefined;
          const group = chosen && query.test === "subjective" ? (classOfPerson(chosen as Person | ContentPerson, attribute) ?? null) : null;
          const { text } = explainerText({
            seed: query.seed,
            streamKey: query.streamKey,
            subjective: query.test === "subjective",
            group,
            letter,
            scale: baseline.scale,
          });
          return { text: `${text}\n${JSON.stringify({ answer: letter })}`, inputTokens: null, outputTokens: null };
        }
        case "scenario-biased": {
          if (query.test === "objective" || query.scenarioIndex === null || query.scenarioIndex === undefined) return calibrated(SCENARIO_BIASED.accuracy);
          // One class of the aimed-at attribute per scenario (of this run's seed), the same in every repeat and context.
          const people = query.options as Array<Person | ContentPerson>;
          const classes = [...new Set(people.map((p) => classOfPerson(p, attribute)))].filter((c): c is string => c !== undefined).sort();
          const scene = createRng(query.seed, `scenario|${query.statisticId}|${query.level}|${query.scenarioIndex}`);
          const favoured = scene.pick(classes);
          const [lo, hi] = SCENARIO_BIASED.strength;
          const strength = lo + (hi - lo) * scene.float();
          if (rng.float() >= strength) return uniform();
          return answer(rng.pick(people.filter((p) => classOfPerson(p, attribute) === favoured).map((p) => p.letter)));
        }
        case "context-follower": {
          let named: string | null = null;
          if (query.context === "representativeness") named = truthOf(query, attribute);
          if ((query.context === "attribution" || query.context === "ingroup") && query.identity)
            named = (query.identity as unknown as Record<string, string | undefined>)[attribute] ?? null;
          const hits = lettersWith(query.options, attribute, named, query.test);
          return hits.length ? answer(rng.pick(hits)) : uniform();
        }
      }
    },
  };
}
