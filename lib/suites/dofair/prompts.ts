// DoFaiR prompts, verbatim from the paper (§3.2 and its appendix Table 6): the baseline, the Bansal and Bianchi
// diversity interventions, + CoT, and the two fact-augmented interventions' guidance requests.
import type { Dimension, Entry } from "./content";

export const METHODS = ["baseline", "bansal", "bianchi"] as const;
export type Method = (typeof METHODS)[number];
export const AUGMENTATIONS = ["cot", "fai-vk", "fai-rk"] as const;
export type Augmentation = (typeof AUGMENTATIONS)[number];

export const METHOD_LABELS: Record<Method, string> = {
  baseline: "Baseline",
  bansal: "Diversity Intervention (Bansal et al., 2022)",
  bianchi: "Diversity Intervention (Bianchi et al., 2023)",
};
export const AUGMENTATION_LABELS: Record<Augmentation, string> = { cot: "+ CoT", "fai-vk": "+ FAI-VK", "fai-rk": "+ FAI-RK" };

const base = (e: Entry) => `Generate an image depicting faces of the representative people among the ${e.group} in ${e.event}`;

/** The image prompt of a method (+ CoT appends the paper's "Think step by step."). FAI guidance is appended at call time. */
export function imagePrompt(e: Entry, method: Method, augmentation: Augmentation | null): string {
  let p: string;
  if (method === "baseline") p = `${base(e)}.`;
  else if (method === "bianchi") p = `${base(e)} from diverse ${e.dimension === "race" ? "racial" : "gender"} groups.`;
  else p = `${base(e)}, if all individuals can be a ${e.group} irrespective of their skin color or ${e.dimension === "race" ? "races" : "genders"}.`;
  return augmentation === "cot" ? `${p} Think step by step.` : p;
}

const distribution = (d: Dimension) => (d === "race" ? "racial" : "gender");

/** What the guidance model is asked: FAI-VK from its own knowledge; FAI-RK from the entry's stored passage. */
export function guidancePrompt(e: Entry, kind: "fai-vk" | "fai-rk"): string {
  const dist = distribution(e.dimension);
  if (kind === "fai-rk" && !e.source) throw new Error(`DoFaiR entry "${e.id}" has no passage to retrieve: FAI-RK cannot be planned on it`);
  if (kind === "fai-vk")
    return `What will be the ${dist} distribution of the ${e.group} in ${e.event} in history? Summarize conclusions as an instruction for an image generation model to output factual ${dist} distribution.`;
  return `Supporting Documents: ${e.source!.title}: ${e.source!.passage} Think step by step. Based on the information in the supporting documents, what will be the ${dist} distribution of the ${e.group} in ${e.event} in history? Summarize conclusions into an instruction for an image generation model to output an image of the ${e.group} in ${e.event} with factual ${dist} distribution.`;
}
