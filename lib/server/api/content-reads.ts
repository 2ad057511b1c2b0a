// A content set's prompts for a seed and its plan for a preset, computed off the event loop and cached by what they
// depend on (lib/server/offload.ts): the prompts by the version's SHA-256, the seed and how many; the plan by the
// version, the preset and the simulation's runs (it does not depend on the seed). A version never changes, so both
// are kept for long. Shared by the API, the content page and an import's dry run.
import type { ContentSetInput } from "../../content/schema";
import type { PlanPreset } from "../../content/plan";
import { offload } from "../offload";

const KEEP_MS = 30 * 60_000;

export function contentPrompts(sha256: string, set: ContentSetInput, seed: number, limit: number, account: string | null) {
  return offload("contentPrompts", { set, seed, limit }, { key: `${sha256}|${seed}|${limit}`, ttlMs: KEEP_MS, account });
}

export function contentPlan(sha256: string, set: ContentSetInput, presetName: string, preset: PlanPreset, runs: number, account: string | null) {
  return offload("contentPlan", { set, preset, runs }, { key: `${sha256}|${presetName}|${runs}`, ttlMs: KEEP_MS, account });
}
