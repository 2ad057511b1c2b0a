// Search parameters of the drill-down pages, validated at the boundary.
import { z } from "zod";
import { ATTRIBUTES, CONTEXTS, LEVELS, TESTS } from "../benchmark/labels";
import { RACE_MAPPINGS } from "../faces/labels";
import { LABEL_SOURCES } from "./label-sources";
import { BREAKDOWN_SORTS } from "./breakdown";
import { DEFAULT_PROFILE, SCORING_PROFILES } from "../metrics/profiles";

const text = z.string().trim().min(1).max(120);

export const groupParamsSchema = z.object({
  model: text.optional(),
  test: z.enum(TESTS).optional(),
  context: z.enum(CONTEXTS).optional(),
  attribute: z.enum(ATTRIBUTES).default("race"),
  labels: z.enum(LABEL_SOURCES).default("model"),
  raceMapping: z.enum(RACE_MAPPINGS).default("paper"),
  profile: z.enum(SCORING_PROFILES).default(DEFAULT_PROFILE),
});

export const breakdownParamsSchema = groupParamsSchema.extend({ sort: z.enum(BREAKDOWN_SORTS).default("benchmark") });

export const answersParamsSchema = groupParamsSchema.extend({
  model: text,
  test: z.enum(TESTS),
  statisticId: z.string().trim().min(1).max(80),
  level: z.enum(LEVELS),
  answer: z.string().trim().min(1).max(20).optional(),
  /** the page's number, as the reader counts (chat answers page by cursor: `after` / `before` a query id) */
  page: z.coerce.number().int().min(1).max(100000).default(1),
  after: z.coerce.number().int().min(0).optional(),
  before: z.coerce.number().int().min(1).optional(),
  /** text-to-image faces page by an image id */
  afterImage: z
    .string()
    .regex(/^[\w-]{1,64}$/)
    .optional(),
  beforeImage: z
    .string()
    .regex(/^[\w-]{1,64}$/)
    .optional(),
});

/** Search params as a flat record (the last value of a repeated key; empty values dropped). */
export function flatParams(sp: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(sp)) {
    const s = Array.isArray(v) ? v[v.length - 1] : v;
    if (s !== undefined && s !== "") out[k] = s;
  }
  return out;
}
