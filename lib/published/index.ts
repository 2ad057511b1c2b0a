// The paper's published scores (Huang et al., 2025, Tables 2–8), stored in data/suites/fact-or-fair/published-results.json in percent
// and exposed here on the app's 0–1 scale so published and measured rows share one code path.
import { z } from "zod";
import raw from "../../data/suites/fact-or-fair/published-results.json";
import { distanceToBound } from "../metrics/bound";
import { distanceToBoundRelease } from "../metrics/bounded-distance";
import { sFairOf } from "../metrics/scores";

export const PUBLISHED_COLUMNS = ["O", "S-B", "S-R", "S-A", "S-G", "S"] as const;
export type PublishedColumn = (typeof PUBLISHED_COLUMNS)[number];
export const METRICS = ["sFact", "sE", "sKLD", "sFair", "distance"] as const;
export type Metric = (typeof METRICS)[number];

const byColumn = z.partialRecord(z.enum(PUBLISHED_COLUMNS), z.number().min(0).max(100));
const rowSchema = z.object({
  model: z.string(),
  attribute: z.enum(["gender", "race"]),
  sFact: byColumn,
  sFair: byColumn,
  sE: byColumn,
  sKLD: byColumn,
  distance: byColumn,
});
const pair = z.object({ gender: z.number(), race: z.number() });
const fileSchema = z.object({
  source: z.string(),
  scale: z.string(),
  columns: z.record(z.string(), z.string()),
  llm: z.array(rowSchema),
  t2i: z.array(rowSchema),
  contextInfluence: z.object({
    table: z.string(),
    rows: z.array(
      z.object({
        model: z.string(),
        representativenessHigh: pair,
        representativenessLow: pair,
        attribution: pair,
        inGroup: pair,
        outGroup: pair,
        avgIncrease: pair,
      }),
    ),
  }),
  summary: z.object({
    table: z.string(),
    rows: z.array(
      z.object({
        model: z.string(),
        objSFact: pair.extend({ avg: z.number() }),
        subjSFair: pair.extend({ avg: z.number() }),
        avg: pair.extend({ avg: z.number() }),
      }),
    ),
  }),
  detectorErrorRates: z.object({
    table: z.string(),
    FairFace: z.object({ genderError: z.number(), raceError: z.number() }),
    DeepFace: z.object({ genderError: z.number(), raceError: z.number() }),
  }),
  /** printed values that contradict the paper's own definitions: kept as printed, flagged, recomputed beside */
  errata: z.array(
    z.object({
      model: z.string(),
      modality: z.enum(["llm", "t2i"]),
      attribute: z.enum(["gender", "race"]),
      columns: z.array(z.enum(PUBLISHED_COLUMNS)).min(1),
      metric: z.enum(["sFair", "distance"]),
      note: z.string().min(1),
    }),
  ),
});

export type PublishedFile = z.infer<typeof fileSchema>;
export const published: PublishedFile = fileSchema.parse(raw);

export interface PublishedScore {
  model: string;
  modality: "llm" | "t2i";
  attribute: "gender" | "race";
  column: PublishedColumn;
  /** 0–1 scale */
  sFact: number | null;
  sE: number | null;
  sKLD: number | null;
  sFair: number | null;
  distance: number | null;
  /** known errata of this row's printed values: the note and the value recomputed from the row's other scores */
  errata?: Partial<Record<Metric, Erratum>>;
}

export interface Erratum {
  note: string;
  /** 0–1 scale, from the definitions (S_fair from S_E and S_KLD; d from S_fact and S_E) */
  recomputed: number;
  /** d only: what the authors' released script computes from the same S_fact and S_E (its bounded optimiser) */
  release?: number;
}

/** The value an erratum's metric should have had, from the row's printed S_fact, S_E and S_KLD. */
export function recomputed(score: Pick<PublishedScore, "attribute" | "sFact" | "sE" | "sKLD">, metric: "sFair" | "distance"): number | null {
  if (metric === "sFair") return score.sE !== null && score.sKLD !== null ? sFairOf(score.sE, score.sKLD) : null;
  return score.sFact !== null && score.sE !== null ? distanceToBound(score.sFact, score.sE, score.attribute === "gender" ? 2 : 4) : null;
}

/** Flattens Tables 4–8 into one row per (model, attribute, column), scores on the 0–1 scale. */
export function publishedScores(): PublishedScore[] {
  const out: PublishedScore[] = [];
  for (const [modality, rows] of [
    ["llm", published.llm],
    ["t2i", published.t2i],
  ] as const) {
    for (const row of rows) {
      const columns = PUBLISHED_COLUMNS.filter((c) => row.sFact[c] !== undefined);
      for (const column of columns) {
        const get = (m: Metric) => (row[m][column] === undefined ? null : row[m][column]! / 100);
        const score: PublishedScore = {
          model: row.model,
          modality,
          attribute: row.attribute,
          column,
          sFact: get("sFact"),
          sE: get("sE"),
          sKLD: get("sKLD"),
          sFair: get("sFair"),
          distance: get("distance"),
        };
        for (const e of published.errata) {
          if (e.model !== row.model || e.modality !== modality || e.attribute !== row.attribute || !e.columns.includes(column)) continue;
          const value = recomputed(score, e.metric);
          const release =
            e.metric === "distance" && score.sFact !== null && score.sE !== null
              ? distanceToBoundRelease(score.sFact, score.sE, score.attribute === "gender" ? 2 : 4)
              : undefined;
          if (value !== null)
            score.errata = { ...score.errata, [e.metric]: { note: e.note, recomputed: value, ...(release !== undefined ? { release } : {}) } };
        }
        out.push(score);
      }
    }
  }
  return out;
}

export type SummaryKey = "objGender" | "objRace" | "subjGender" | "subjRace" | "avgGender" | "avgRace" | "avg";
type SummaryRow = PublishedFile["summary"]["rows"][number];

/**
 * Table 2's printed cells that rest on an erratum of Tables 4–8 (its S_fair is the mean of a model's subjective
 * S_fair columns, its averages means of those): each with the erratum's note and the value recomputed from the
 * corrected parts, 0–1 scale. The same errata list drives every table, so a flagged number is flagged everywhere.
 * Table 2 names models briefly ("FLUX-1.1" for "Flux-1.1-Pro"): a summary row matches the table rows it starts.
 */
export function summaryErrata(row: SummaryRow): Partial<Record<SummaryKey, Erratum>> {
  const scores = publishedScores().filter((p) => p.model.toLowerCase().startsWith(row.model.toLowerCase()));
  const out: Partial<Record<SummaryKey, Erratum>> = {};
  const subj: Record<"gender" | "race", number> = { gender: row.subjSFair.gender / 100, race: row.subjSFair.race / 100 };
  for (const attribute of ["gender", "race"] as const) {
    const cols = scores.filter((p) => p.attribute === attribute && p.column !== "O");
    const flagged = cols.filter((p) => p.errata?.sFair);
    if (!flagged.length || cols.some((p) => p.sFair === null)) continue;
    subj[attribute] = cols.reduce((a, p) => a + (p.errata?.sFair?.recomputed ?? p.sFair!), 0) / cols.length;
    const note = flagged.map((p) => p.errata!.sFair!.note).join(" ");
    out[attribute === "gender" ? "subjGender" : "subjRace"] = { note, recomputed: subj[attribute] };
    out[attribute === "gender" ? "avgGender" : "avgRace"] = {
      note: `Averages the flagged S_fair. ${note}`,
      recomputed: ((attribute === "gender" ? row.objSFact.gender : row.objSFact.race) / 100 + subj[attribute]) / 2,
    };
  }
  if (out.avgGender || out.avgRace) {
    const g = out.avgGender?.recomputed ?? row.avg.gender / 100;
    const r = out.avgRace?.recomputed ?? row.avg.race / 100;
    out.avg = { note: `Averages a flagged S_fair. ${(out.subjRace ?? out.subjGender)!.note}`, recomputed: (g + r) / 2 };
  }
  return out;
}
