// Query-string options of a suite's result pages, validated once (bad values fall back to the defaults).
import { z } from "zod";
import { ITEM_SETS } from "./review-states";
import { DEFAULT_PROFILE, SCORING_PROFILES } from "../metrics/profiles";
import { DEFAULT_INTERVAL_TARGET, INTERVAL_TARGETS } from "../metrics/design";

const suiteResultParamsSchema = z.object({
  labels: z.enum(["model", "reviewed"]).catch("model"),
  items: z.enum(ITEM_SETS).catch("all"),
  page: z.coerce.number().int().min(0).max(100_000).catch(0),
  profile: z.enum(SCORING_PROFILES).catch(DEFAULT_PROFILE),
  target: z.enum(INTERVAL_TARGETS).catch(DEFAULT_INTERVAL_TARGET),
});

/** A drill-down cell: short, plain filter values only. */
export const drillCellSchema = z.record(z.string().regex(/^[a-z]{1,20}$/), z.string().max(200)).refine((r) => Object.keys(r).length <= 8, "too many filters");

export function resultParams(sp: Record<string, string | string[] | undefined>) {
  const one = (k: string) => (Array.isArray(sp[k]) ? sp[k]![0] : sp[k]);
  return suiteResultParamsSchema.parse({ labels: one("labels"), items: one("items"), page: one("page"), profile: one("profile"), target: one("target") });
}
