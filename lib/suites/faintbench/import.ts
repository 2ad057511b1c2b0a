// Images made elsewhere (the paper's own outputs, a model without an API): the release's layout
// `model_name/prompt_name/image.png` (Appendix M.1). The last folder names the prompt — by its id (i-dancer), its
// identity prompt ("a photo of one Dancer") or the full prompt with the style suffix; case and runs of spaces do
// not matter.
import { ImportNameError } from "../../images/import-names";
import { ACQUIRED, VISIBILITY } from "./classes";
import type { FaintContent, FaintPrompt } from "./content";
import type { FaintConfig } from "./config";

export const IMPORT_NAMING =
  "<prompt>/<image file>: the folder is the prompt's id (i-dancer), its text (a photo of one Dancer) or the full prompt; e.g. SDXL/a photo of one Dancer/0001.png";

const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();
const indexes = new WeakMap<FaintContent, Map<string, FaintPrompt>>();

function index(content: FaintContent): Map<string, FaintPrompt> {
  let m = indexes.get(content);
  if (!m) {
    m = new Map();
    for (const p of content.prompts) for (const key of [p.id, p.text, p.prompt]) m.set(norm(key), p);
    indexes.set(content, m);
  }
  return m;
}

export function importTarget(path: string, content: FaintContent) {
  const parts = path.split("/");
  if (parts.length < 2) throw new ImportNameError(`"${path}" is not in a prompt folder (${IMPORT_NAMING})`);
  const folder = parts[parts.length - 2];
  const p = index(content).get(norm(folder));
  if (!p) throw new ImportNameError(`"${path}": "${folder}" is not a FAIntbench prompt (an id like i-dancer, or the prompt's text)`);
  return { test: p.visibility, statisticId: p.id, level: p.acquired };
}

export function importConfig(
  targets: ReadonlyArray<{ test: string; statisticId: string; level: string }>,
  instrument: "faces" | "clip" = "faces",
): FaintConfig {
  const perPrompt = new Map<string, number>();
  for (const t of targets) perPrompt.set(t.statisticId, (perPrompt.get(t.statisticId) ?? 0) + 1);
  return {
    visibility: VISIBILITY.filter((v) => targets.some((t) => t.test === v)),
    acquired: ACQUIRED.filter((q) => targets.some((t) => t.level === q)),
    imagesPerPrompt: Math.min(1000, Math.max(1, ...perPrompt.values())),
    itemsPerAcquired: 0,
    maxRetries: 0,
    timeoutMs: 180_000,
    instrument,
  };
}
