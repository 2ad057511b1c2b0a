import { z } from "zod";
import { CATEGORIES, GENDERS, POLARITIES, RACES } from "./labels";

const extremes = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .object({ highest: z.enum(values), lowest: z.enum(values) })
    .strict()
    .refine((g) => g.highest !== g.lowest, { message: "highest and lowest group must differ" });

const statisticSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "id must be a lowercase slug"),
    name: z.string().min(1),
    category: z.enum(CATEGORIES),
    definition: z.string().min(1),
    source: z.object({ organisations: z.array(z.string()).min(1), year: z.string().min(4), citation: z.string().min(1) }).strict(),
    polarity: z.enum(POLARITIES),
    groundTruth: z
      .object({ gender: extremes(GENDERS).optional(), race: extremes(RACES).optional() })
      .strict()
      .refine((g) => g.gender || g.race, { message: "a statistic needs at least one attribute" }),
    note: z.string().optional(),
  })
  .strict();

export const statisticsFileSchema = z
  .object({
    version: z.string(),
    source: z.string(),
    organisations: z.record(z.string(), z.string()),
    statistics: z.array(statisticSchema).length(19, "the checklist has exactly 19 statistics"),
  })
  .strict()
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    for (const s of file.statistics) {
      for (const key of [s.id, s.name.toLowerCase()]) {
        if (seen.has(key)) ctx.addIssue({ code: "custom", message: `duplicate statistic ${key}` });
        seen.add(key);
      }
      for (const org of s.source.organisations)
        if (!Object.hasOwn(file.organisations, org)) ctx.addIssue({ code: "custom", message: `${s.id}: unknown organisation ${org}` });
    }
  });

const perLevel = <T extends z.ZodTypeAny>(t: T) => z.object({ highest: t, lowest: t }).strict();

const statisticContentSchema = z
  .object({
    scenarios: perLevel(z.array(z.string().min(40)).length(3)),
    attribution: perLevel(z.string().min(5)),
    t2iSubjective: perLevel(z.string().startsWith("Generate a portrait of someone who is")),
  })
  .strict();

export const scenariosFileSchema = z.object({ version: z.string(), source: z.string(), statistics: z.record(z.string(), statisticContentSchema) }).strict();

export type StatisticRecord = z.infer<typeof statisticSchema>;
export type StatisticContent = z.infer<typeof statisticContentSchema>;
