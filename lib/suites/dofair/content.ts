// DoFaiR content: historical events written for the workbench (a sample set: the paper's 756 entries are published in
// its authors' repository without a licence, so they are not shipped — a user may import their own copy, official.ts),
// each yielding a race and a gender entry with the dominant and involved FairFace classes and a checkable passage.
import { createHash } from "node:crypto";
import { z } from "zod";
import eventsJson from "../../../data/suites/dofair/events.json";

export const DOFAIR_RACES = ["White", "Black", "Latino_Hispanic", "East Asian", "Southeast Asian", "Indian", "Middle Eastern"] as const;
export const DOFAIR_GENDERS = ["Male", "Female"] as const;
export const DIMENSIONS = ["race", "gender"] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export const CULTURES = ["Europe", "North America", "Latin America", "Africa and Middle East", "East Asia", "South and Southeast Asia"] as const;
/** The paper's eleven thirty-year periods, 1700–2024. */
export const PERIODS = Array.from({ length: 11 }, (_, i) => `${1700 + 30 * i}–${i === 10 ? 2024 : 1729 + 30 * i}`);

export const classesOf = (d: Dimension): readonly string[] => (d === "race" ? DOFAIR_RACES : DOFAIR_GENDERS);

const groupTruth = (classes: readonly [string, ...string[]]) =>
  z
    .object({ dominant: z.array(z.enum(classes)).min(1), involved: z.array(z.enum(classes)).min(1) })
    .refine((t) => new Set(t.dominant).size === t.dominant.length && new Set(t.involved).size === t.involved.length, "classes repeat")
    .refine((t) => t.dominant.every((c) => t.involved.includes(c)), "every dominant class must also be involved");

const eventSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]{3,60}$/),
    event: z.string().min(5).max(200),
    year: z.number().int().min(1700).max(2024),
    culture: z.enum(CULTURES),
    group: z.string().min(2).max(120),
    // An event gives an entry per dimension, unless `dropped` says why not (e.g. no source for the balance).
    race: groupTruth(DOFAIR_RACES).optional(),
    gender: groupTruth(DOFAIR_GENDERS).optional(),
    dropped: z.partialRecord(z.enum(DIMENSIONS), z.string().min(10).max(300)).optional(),
    source: z.object({ title: z.string().min(2).max(200), citation: z.string().min(2).max(300), passage: z.string().min(40).max(1200) }),
  })
  .refine((e) => DIMENSIONS.every((d) => !!e[d] !== !!e.dropped?.[d]), "each dimension has either its truth or a reason it was dropped");
const eventsFileSchema = z
  .object({ version: z.string().regex(/^\d+\.\d+\.\d+$/), note: z.string(), events: z.array(eventSchema).min(60) })
  .refine((f) => new Set(f.events.map((e) => e.id)).size === f.events.length, "event ids repeat");

export interface Entry {
  /** `${event id}-${dimension}` */
  id: string;
  eventId: string;
  event: string;
  /** the official release's own spelling where it is not the trimmed `event` (a trailing space): the release
   * wording sends it as the release does */
  eventAsReleased?: string;
  /** likewise the group's spelling in the official release, where it is not the trimmed `group` */
  groupAsReleased?: string;
  /** null where the source gives only a period (or nothing: "unknown") */
  year: number | null;
  period: string;
  culture: string;
  dimension: Dimension;
  group: string;
  dominant: string[];
  involved: string[];
  /** a checkable passage (FAI-RK retrieves it); absent in the official release's CSVs */
  source?: { title: string; citation: string; passage: string };
}

export interface DofairContent {
  version: string;
  sha256: string;
  note: string;
  entries: Entry[];
  /** where the entries came from: the workbench's sample set, or a user's copy of the official release (official.ts) */
  origin?: { kind: "sample" } | { kind: "official"; files: Array<{ name: string; sha256: string; rows: number }>; importedAt: string };
}

/** Whether every entry carries a passage: FAI-RK retrieves it, so content without passages cannot plan FAI-RK. */
export const hasPassages = (c: Pick<DofairContent, "entries">) => c.entries.every((e) => !!e.source);

function periodOf(year: number): string {
  return PERIODS[Math.min(10, Math.floor((year - 1700) / 30))];
}

/** Validates the events file and expands it into entries (one per event and dimension). */
export function buildContent(input: unknown): DofairContent {
  const file = eventsFileSchema.parse(input);
  const entries: Entry[] = file.events.flatMap((e) =>
    DIMENSIONS.flatMap((d) => {
      const t = e[d];
      return t
        ? [
            {
              id: `${e.id}-${d}`,
              eventId: e.id,
              event: e.event,
              year: e.year,
              period: periodOf(e.year),
              culture: e.culture,
              dimension: d,
              group: e.group,
              dominant: [...t.dominant],
              involved: [...t.involved],
              source: e.source,
            },
          ]
        : [];
    }),
  );
  const sha256 = createHash("sha256")
    .update(JSON.stringify({ version: file.version, entries }))
    .digest("hex");
  return { version: `dofair-${file.version}`, sha256, note: file.note, entries, origin: { kind: "sample" } };
}

let today: DofairContent | null = null;
export function currentContent(): DofairContent {
  return (today ??= buildContent(eventsJson));
}

export function parsePinned(json: string): DofairContent {
  const c = JSON.parse(json) as DofairContent;
  if (!c || !Array.isArray(c.entries) || typeof c.sha256 !== "string") throw new Error("unreadable DoFaiR content");
  return c;
}
