// A content set a team writes (issue #57): its attributes and classes, statistics with sources and the classes with
// the highest and lowest value, scenarios per statistic and level, the prompt templates and the language of all of
// it. One zod schema, from which the published JSON Schema (docs/schemas/content-set.schema.json) is generated, so
// the file a team validates in its editor and the check `fof content validate` runs are the same.
import { z } from "zod";
import { CONTENT_LIMITS as L } from "./limits";

const slug = z
  .string()
  .max(L.idChars)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "must be a lowercase slug (a-z, 0-9, single hyphens)");
// Text a prompt or a page shows: no control characters, no markup (every page escapes it too; this keeps a name that
// is a script out of exports and reports opened elsewhere).
// Bidirectional embeddings, overrides and isolates reorder what a reader sees against what a program reads (a name
// shown as one thing, exported as another): refused everywhere. Zero-width characters and the directional marks are
// refused in names (below) but allowed in prose, where Persian needs the zero-width non-joiner and Hebrew and Arabic the marks.
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;
/** Characters that show nothing: every format control (Cf: zero-width spaces and joiners, directional marks, the soft
 * hyphen, U+180E …), the combining grapheme joiner and the Hangul fillers. */
const INVISIBLE = /[\p{Cf}\u034f\u115f\u1160\u3164\uffa0]/u;
/** What a spreadsheet takes for the start of a formula, in any of its forms, and a leading space. */
const FORMULA_LEAD = /^[=+\-@\s\u2212\ufe62\ufe63\ufe66\uff1d\uff0b\uff0d\uff20]/u;
const prose = (max: number) =>
  z
    .string()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s), "must not contain control characters")
    .refine((s) => !BIDI_CONTROLS.test(s), "must not contain bidirectional controls (U+202A–202E, U+2066–2069)")
    .refine((s) => !/<\s*\/?\s*(script|iframe|object|embed|svg|img|style|link|meta|a)\b|javascript:/i.test(s), "must not contain markup or script");
// Names and words (a class, an attribute, a title) hold no angle brackets at all; prose (templates, scenarios,
// definitions) may show "<letter>" but no tag that a browser would run.
// Names also hold nothing invisible, and never begin like a spreadsheet formula or with a space: a name is a cell of
// every CSV export, and a cell that starts with = + - @ (or their full-width forms) is run as a formula by spreadsheets.
const text = (max: number) =>
  prose(max)
    .refine((s) => !/[<>]/.test(s), "must not contain < or > (markup)")
    .refine(
      (s) => !INVISIBLE.test(s),
      "must not contain invisible characters: format controls (U+200B–200F, U+061C, U+00AD, U+2060, U+FEFF …), fillers or joiners",
    )
    .refine(
      (s) => !FORMULA_LEAD.test(s),
      "must not begin with = + - @, a form of them (full-width, small, the minus sign), or a space (a spreadsheet would run it)",
    );

const classSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .max(L.idChars)
      .regex(/^[A-Za-z0-9][A-Za-z0-9 ._+-]*$/, "must be letters, digits, spaces and . _ + -"),
    /** the word a prompt uses for a person of this class ("male", "weiblich", "65 Jahre und älter") */
    word: text(L.wordChars),
    /** how an objective question lists the class as an option (default: the word) */
    option: text(L.wordChars).optional(),
    /** other forms a template may name as {{attribute.form}} ("an Asian", "einen Mann") */
    forms: z.record(slug, text(L.wordChars)).optional(),
    /** words in an answer that name this class, for the fallback parser (default: word, option and id) */
    aliases: z.array(text(L.wordChars)).max(L.aliases).optional(),
  })
  .strict();

const attributeSchema = z
  .object({
    id: slug,
    /** the attribute's own noun in the content's language ("race", "Altersgruppe") */
    noun: text(L.wordChars),
    classes: z.array(classSchema).min(2, "an attribute needs at least 2 classes").max(L.classes, `at most ${L.classes} classes`),
  })
  .strict();

const extremes = z
  .object({
    highest: z.string(),
    lowest: z.string(),
    /** the published values per class, where the source gives them (shown beside the answers; not scored) */
    values: z.record(z.string(), z.number().finite()).optional(),
    unit: text(L.wordChars).optional(),
  })
  .strict();

const perLevel = <T extends z.ZodType>(t: T) => z.object({ highest: t, lowest: t }).strict();

const statisticSchema = z
  .object({
    id: slug,
    name: text(L.nameChars),
    definition: prose(L.textChars),
    /** the definition as it reads inside the objective sentence (default: the definition) */
    definitionInSentence: prose(L.textChars).optional(),
    category: text(L.wordChars).optional(),
    polarity: z.enum(["favourable", "unfavourable"]),
    source: z
      .object({
        organisation: text(L.nameChars),
        url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(L.urlChars),
        year: z.int().min(1900).max(2100),
        citation: prose(L.textChars).optional(),
      })
      .strict(),
    groundTruth: z.record(z.string(), extremes),
    scenarios: perLevel(z.array(prose(L.scenarioChars)).max(L.scenariosPerCell)),
    /** what the person in the attribution context's news report did, for each side (required with that context) */
    attribution: perLevel(prose(L.textChars)).optional(),
  })
  .strict();

const templatesSchema = z
  .object({
    objective: prose(L.templateChars),
    levels: perLevel(text(L.wordChars)),
    person: prose(L.templateChars),
    answer: prose(L.templateChars),
    /**
     * the answer line of a chain-of-thought run, in the set's language (issue #67): asks for the reasoning first, then
     * the same JSON answer ({{letters}}); a set without it cannot be run with chain of thought (no mixed languages)
     */
    reasonFirst: prose(L.templateChars).optional(),
    names: z.array(text(L.wordChars)).min(2).max(L.names),
    ages: z
      .object({ min: z.int().min(0).max(120), max: z.int().min(0).max(120) })
      .strict()
      .optional(),
    contexts: z
      .object({
        representativeness: z
          .object({
            sentence: prose(L.templateChars),
            part: prose(L.templateChars),
            // the words between the parts (", " or " und "): free of control, bidirectional and invisible characters
            joiner: z
              .string()
              .max(20)
              .refine(
                (s) => !/[\u0000-\u001f\u007f]/.test(s) && !BIDI_CONTROLS.test(s) && !INVISIBLE.test(s),
                "must not contain control, bidirectional or invisible characters",
              ),
          })
          .strict()
          .optional(),
        attribution: prose(L.templateChars).optional(),
        ingroup: prose(L.templateChars).optional(),
        identity: prose(L.templateChars).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export const contentSetSchema = z
  .object({
    $schema: z.string().optional(),
    id: slug,
    title: text(L.nameChars),
    version: z.string().regex(/^\d+\.\d+\.\d+$/, "must be a version like 1.0.0"),
    /** a BCP 47 language tag ("en", "de", "pt-BR") */
    language: z.string().max(35),
    /** where the statistics hold ("the U.S.", "Deutschland"), for {{region}} */
    region: text(L.wordChars),
    attributes: z.array(attributeSchema).min(1).max(L.attributes),
    /**
     * Ask the objective question about an attribute also where the statistic gives no highest and lowest class for it
     * (the paper does: 19 × 2 × 2 questions per repeat; they count in no score). Default false.
     */
    objectiveWithoutTruth: z.boolean().optional(),
    templates: templatesSchema,
    statistics: z.array(statisticSchema).max(L.statistics).optional(),
  })
  .strict();

export type ContentSetInput = z.infer<typeof contentSetSchema>;
export type StatisticInput = z.infer<typeof statisticSchema>;
export type AttributeInput = z.infer<typeof attributeSchema>;
