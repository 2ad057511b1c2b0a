// What keeps a registered model from running at all, known before any call (checked at launch and shown on the Models
// page): today the synthetic image model's photos. Missing API keys are reported separately (keyMissing).
import { env } from "../env";
import { SYNTHETIC_IMAGE_SLUG, syntheticFacePaths, syntheticProblem } from "./synthetic";

export function modelProblem(m: { provider: string; slug: string }): string | null {
  if (m.provider === "baseline" && m.slug === SYNTHETIC_IMAGE_SLUG) return syntheticProblem(syntheticFacePaths(env().FOF_SYNTHETIC_FACES));
  return null;
}
