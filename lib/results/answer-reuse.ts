// Reusing answers another run obtained (client-safe: the launch form, the API, the CLI and the run page share it).
// A run takes only its own answers unless its launch names a run (`fromRun`) or a maximum age (`maxAgeHours`), or
// both (that run's answers, no older than the age). lib/features/runs/answer-cache.ts applies it.
import { z } from "zod";

const MAX_AGE_HOURS = 24 * 3650;

export const answerReuseSchema = z
  .object({
    fromRun: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/, "a run id")
      .optional()
      .describe("take answers this run obtained (same model, settings, prompt, query and repeat)"),
    maxAgeHours: z.number().positive().max(MAX_AGE_HOURS).optional().describe("take answers any run obtained at most this many hours ago"),
  })
  .strict()
  .refine((r) => r.fromRun !== undefined || r.maxAgeHours !== undefined, "name a run to reuse answers from, a maximum age, or both");
export type AnswerReuse = z.infer<typeof answerReuseSchema>;

/** "30d", "12h", "90m", "2w" or a number of hours → hours; null when it is not one of those. */
export function parseAge(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(w|d|h|m)?\s*$/i.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  const hours = n * { w: 168, d: 24, h: 1, m: 1 / 60 }[(m[2] ?? "h").toLowerCase() as "w" | "d" | "h" | "m"];
  return hours > 0 && hours <= MAX_AGE_HOURS ? hours : null;
}

function ageText(hours: number): string {
  if (hours % 24 === 0) return `${hours / 24} day${hours === 24 ? "" : "s"}`;
  if (hours >= 1) return `${+hours.toFixed(2)} hour${hours === 1 ? "" : "s"}`;
  return `${Math.round(hours * 60)} minutes`;
}

/** The reuse the CLI's flags ask for (--reuse-answers-from, --reuse-answers-max-age); undefined: none. Throws a message. */
export function reuseFromFlags(fromRun: string | undefined, maxAge: string | undefined): AnswerReuse | undefined {
  if (fromRun === undefined && maxAge === undefined) return undefined;
  let maxAgeHours: number | undefined;
  if (maxAge !== undefined) {
    const h = parseAge(maxAge);
    if (h === null) throw new Error(`--reuse-answers-max-age takes an age such as 30d, 12h, 90m or 2w (at most 10 years), got "${maxAge}"`);
    maxAgeHours = h;
  }
  const parsed = answerReuseSchema.safeParse({ ...(fromRun !== undefined ? { fromRun } : {}), ...(maxAgeHours !== undefined ? { maxAgeHours } : {}) });
  if (!parsed.success) throw new Error(`--reuse-answers-from: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  return parsed.data;
}

/** What a run's launch allowed, in words. */
export function reuseText(r: AnswerReuse | null): string {
  if (!r) return "only answers this run obtained";
  const from = r.fromRun !== undefined ? `run ${r.fromRun}` : "any earlier run";
  return `answers from ${from}${r.maxAgeHours !== undefined ? ` obtained at most ${ageText(r.maxAgeHours)} before they are asked` : ""}, where this run asks the same`;
}

/** Where one outcome's answer came from, in words (null: this run obtained it). */
export function reusedText(fromRunId: string | null | undefined, at: Date | string | null | undefined): string | null {
  if (fromRunId === null || fromRunId === undefined) return null;
  const when = at ? new Date(at).toISOString().replace("T", " ").slice(0, 16) + " UTC" : "at an unknown time";
  return `reused from ${fromRunId ? `run ${fromRunId}` : "an earlier run (not recorded)"}, obtained ${when}`;
}
