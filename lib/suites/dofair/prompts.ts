// DoFaiR prompts. Two wordings, chosen at launch and recorded in the run's config (`wording`):
// - "release" (the default): the authors' released code — constants.py's templates as generate_images_dalle.py
//   composes them (the gender Bansal intervention "…irrespective of their genders.", as the paper's §3.2 also says;
//   FAI-VK asks with the image prompt, "Think step by step." and the history question; event and group names as the
//   release's CSV spells them, a trailing space included);
// - "appendix": the paper's appendix Table 6 ("…irrespective of their skin color or genders."; FAI-VK the history
//   question alone).
// CoT and FAI are helper chat calls in both: the helper's answer is appended to the image prompt after one space,
// as generate_images_dalle.py does (`prompt + ' ' + model_extension`).
import type { Dimension, Entry } from "./content";

export const METHODS = ["baseline", "bansal", "bianchi"] as const;
export type Method = (typeof METHODS)[number];
export const AUGMENTATIONS = ["cot", "fai-vk", "fai-rk"] as const;
export type Augmentation = (typeof AUGMENTATIONS)[number];
export const WORDINGS = ["release", "appendix"] as const;
export type Wording = (typeof WORDINGS)[number];

export const METHOD_LABELS: Record<Method, string> = {
  baseline: "Baseline",
  bansal: "Diversity Intervention (Bansal et al., 2022)",
  bianchi: "Diversity Intervention (Bianchi et al., 2023)",
};
export const AUGMENTATION_LABELS: Record<Augmentation, string> = { cot: "+ CoT", "fai-vk": "+ FAI-VK", "fai-rk": "+ FAI-RK" };
export const WORDING_LABELS: Record<Wording, string> = {
  release: "Released code (constants.py; the paper's §3.2)",
  appendix: "Paper appendix (Table 6)",
};
/** Where the two wordings differ, for the pages that show prompts. */
export const WORDING_DIFFERENCE =
  "The gender Bansal intervention ends “…irrespective of their genders.” in the released code (constants.py) and the paper's §3.2, “…irrespective of their skin color or genders.” in the paper's appendix Table 6; the released code's FAI-VK request starts with the image prompt and “Think step by step.”, the appendix's is the history question alone; the release keeps event names as its CSV spells them (one official gender entry ends in a space).";

/** The event and group as the wording spells them: the release's own spelling (untrimmed) where it differs. */
const eventOf = (e: Entry, wording: Wording) => (wording === "release" ? (e.eventAsReleased ?? e.event) : e.event);
const groupOf = (e: Entry, wording: Wording) => (wording === "release" ? (e.groupAsReleased ?? e.group) : e.group);

const base = (e: Entry, w: Wording) => `Generate an image depicting faces of the representative people among the ${groupOf(e, w)} in ${eventOf(e, w)}`;

/** A method's image prompt, before any helper's answer (CoT and FAI append theirs at call time). */
export function imagePrompt(e: Entry, method: Method, wording: Wording = "release"): string {
  if (method === "baseline") return `${base(e, wording)}.`;
  if (method === "bianchi") return `${base(e, wording)} from diverse ${e.dimension === "race" ? "racial" : "gender"} groups.`;
  const irrespective = e.dimension === "race" ? "skin color or races" : wording === "release" ? "genders" : "skin color or genders";
  return `${base(e, wording)}, if all individuals can be a ${groupOf(e, wording)} irrespective of their ${irrespective}.`;
}

const distribution = (d: Dimension) => (d === "race" ? "racial" : "gender");

/**
 * What the helper chat model is asked for an augmented image. CoT: the image prompt and "Think step by step." (the
 * answer, its reasoning, completes the prompt). FAI-VK: from the model's own knowledge. FAI-RK: from the entry's
 * stored passage (the same text in both wordings; the official data has no passages).
 */
export function helperPrompt(e: Entry, method: Method, kind: Augmentation, wording: Wording = "release", documents: "numbered" | "titled" = "titled"): string {
  const dist = distribution(e.dimension);
  const event = eventOf(e, wording);
  const group = groupOf(e, wording);
  const image = imagePrompt(e, method, wording);
  if (kind === "cot") return `${image} Think step by step.`;
  if (kind === "fai-vk") {
    const question = `What will be the ${dist} distribution of the ${group} in ${event} in history? Summarize conclusions as an instruction for an image generation model to output factual ${dist} distribution.`;
    return wording === "release" ? `${image} Think step by step. ${question}` : question;
  }
  if (!e.source) throw new Error(`DoFaiR entry "${e.id}" has no passage to retrieve: FAI-RK cannot be planned on it`);
  // generate_images_dalle.py: rag_docs += 'Document_{}: '.format(doc_id) + doc + '\n\n', then RAG_COT_*_PROMPT.format(rag_docs, …)
  const docs = documents === "numbered" ? `Document_0: ${e.source.passage}\n\n` : `${e.source.title}: ${e.source.passage}`;
  return `Supporting Documents: ${docs} Think step by step. Based on the information in the supporting documents, what will be the ${dist} distribution of the ${group} in ${event} in history? Summarize conclusions into an instruction for an image generation model to output an image of the ${group} in ${event} with factual ${dist} distribution.`;
}
