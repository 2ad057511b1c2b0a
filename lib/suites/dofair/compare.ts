// What two DoFaiR runs are compared on (lib/features/results/suite-comparisons.ts): the per-image DDC, IDC, IDF and
// FDD of every (dimension, method, augmentation), each image with its entry, read exactly as the results table is.
import type { ComparableScores, SuiteContext } from "../types";
import { DEFAULT_PROFILE, type ScoringProfile } from "../../metrics/profiles";
import type { DofairContent } from "./content";
import { collect, COLUMNS, variantLabel } from "./results";

/** The per-image scores two runs are compared on: per (model, dimension, method, augmentation), with its entry. */
export async function dofairComparable(
  ctx: SuiteContext,
  req: { runId: string; labels: "model" | "reviewed"; profile?: ScoringProfile },
  content: DofairContent,
): Promise<ComparableScores> {
  const cells = await collect(ctx, req.runId, content, req.labels, undefined, req.profile ?? DEFAULT_PROFILE);
  return {
    metrics: COLUMNS.map((c) => ({ id: c.id, label: c.label.replace(/ \(.*$/, ""), better: c.better === "up" ? "higher" : "zero" })),
    range: [-1, 1],
    items: "entries",
    groups: [...cells.values()].map((c) => ({
      model: c.model,
      key: JSON.stringify([c.dimension, c.method, c.augmentation]),
      label: `${c.dimension} · ${variantLabel(c.method, c.augmentation)}`,
      units: c.units,
    })),
  };
}
