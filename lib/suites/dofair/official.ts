// The official DoFaiR entries, read from a user's copy of the authors' release (elainew728/factuality-tax-t2i), never
// shipped: the repository carries no licence. The release's entries are its `output/*_imggen.csv` files (600 race
// entries, 100 per culture, and 156 gender entries, 26 per culture), columns
//   culture, event_name, group, dominant_<race|gender>_list, existence_<race|gender>_list, img_path
// with the lists as Python literals ("['Black', 'White']"). Its `data/events_year_culture_<dim>_roles.csv`
// (culture, years, event_name, dominant_<dim>, group) give each event's thirty-year period; read when supplied.
// Classes are FairFace's but for the release's spelling "Latino" (FairFace: Latino_Hispanic) and lower-case genders.
// Every row is validated (known classes, none repeated, dominant ⊆ involved, no duplicate entry); a file with any bad
// row is refused whole, with the rows named. The result is a content version of its own (sha256 of the entries, the
// files' names and hashes as its origin), so runs planned on it are scored from it whatever is imported later.
import { createHash } from "node:crypto";
import { parse } from "csv-parse/sync";
import { DOFAIR_GENDERS, DOFAIR_RACES, type Dimension, type DofairContent, type Entry } from "./content";
import { DomainError } from "../../core/errors";

/** What is wrong with the files (400: the user's data, shown as is). */
export class OfficialDataError extends DomainError {
  constructor(message: string) {
    super("invalid", message);
  }
}

/** What one import may read: the release's files are ~120 kB; anything far larger is not them. */
const OFFICIAL_LIMITS = { maxFiles: 20, maxFileBytes: 5 * 1024 * 1024, maxRows: 20_000 } as const;

const RACE_SPELLING: Record<string, string> = { Latino: "Latino_Hispanic" };
const GENDER_SPELLING: Record<string, string> = { male: "Male", female: "Female" };

/** "['Black', 'White']" (a Python list literal of quoted strings) → ["Black", "White"]; null when it is not one. */
export function pythonList(text: string): string[] | null {
  const t = text.trim();
  if (!t.startsWith("[") || !t.endsWith("]")) return null;
  const inner = t.slice(1, -1).trim();
  if (!inner) return [];
  const out: string[] = [];
  const re = /\s*(['"])((?:(?!\1).)*)\1\s*(,|$)/y;
  let at = 0;
  while (at < inner.length) {
    re.lastIndex = at;
    const m = re.exec(inner);
    if (!m) return null;
    out.push(m[2]);
    at = re.lastIndex;
  }
  return out;
}

export interface OfficialFile {
  name: string;
  text: string;
}

const dimensionOf = (header: readonly string[]): Dimension | null =>
  header.includes("dominant_race_list") && header.includes("existence_race_list")
    ? "race"
    : header.includes("dominant_gender_list") && header.includes("existence_gender_list")
      ? "gender"
      : null;

function rowsOf(f: OfficialFile): Array<Record<string, string>> {
  if (Buffer.byteLength(f.text) > OFFICIAL_LIMITS.maxFileBytes)
    throw new OfficialDataError(`${f.name}: larger than ${OFFICIAL_LIMITS.maxFileBytes / 1024 / 1024} MB — not a DoFaiR release file`);
  try {
    return parse(f.text, { columns: true, skip_empty_lines: true, bom: true, relax_column_count: false, to: OFFICIAL_LIMITS.maxRows + 1 }) as Array<
      Record<string, string>
    >;
  } catch (e) {
    throw new OfficialDataError(`${f.name}: not readable as CSV (${(e as Error).message})`);
  }
}

const PERIOD_RE = /^(\d{4})\s*[-–]\s*(\d{4})$/;
// C0 controls (NUL, tab, newline, escape …), DEL and C1 controls: none belongs in a name.
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f]/;
const key = (...parts: string[]) => parts.map((p) => p.trim().toLowerCase()).join("\u0000");
const slug = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 12);

/**
 * Reads the release's files into a content version. Files that are neither an entries file (`*_imggen.csv`
 * columns) nor a years file are refused by name, so a wrong folder is noticed, not half-read.
 */
export function readOfficial(files: readonly OfficialFile[], now = new Date()): DofairContent {
  if (!files.length) throw new OfficialDataError("no files: give the release's output/*_imggen.csv (and, for periods, data/events_year_culture_*_roles.csv)");
  if (files.length > OFFICIAL_LIMITS.maxFiles) throw new OfficialDataError(`${files.length} files: at most ${OFFICIAL_LIMITS.maxFiles} per import`);
  const periods = new Map<string, string>();
  const entryFiles: Array<{ f: OfficialFile; dimension: Dimension; rows: Array<Record<string, string>> }> = [];
  for (const f of files) {
    const rows = rowsOf(f);
    if (rows.length > OFFICIAL_LIMITS.maxRows) throw new OfficialDataError(`${f.name}: more than ${OFFICIAL_LIMITS.maxRows.toLocaleString("en-US")} rows`);
    const header = rows.length ? Object.keys(rows[0]) : [];
    const dimension = dimensionOf(header);
    if (dimension) entryFiles.push({ f, dimension, rows });
    else if (["culture", "years", "event_name", "group"].every((c) => header.includes(c)))
      for (const r of rows) {
        const m = PERIOD_RE.exec(r.years?.trim() ?? "");
        if (m) periods.set(key(r.culture, r.event_name, r.group), `${m[1]}–${m[2]}`);
      }
    else
      throw new OfficialDataError(
        `${f.name}: neither an entries file (culture, event_name, group, dominant_<race|gender>_list, existence_<race|gender>_list) nor a years file (culture, years, event_name, group)`,
      );
  }
  if (!entryFiles.length) throw new OfficialDataError("no entries file among them: the entries are the release's output/*_imggen.csv");
  const entries: Entry[] = [];
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const { f, dimension, rows } of entryFiles) {
    const classes: readonly string[] = dimension === "race" ? DOFAIR_RACES : DOFAIR_GENDERS;
    const spelling = dimension === "race" ? RACE_SPELLING : GENDER_SPELLING;
    rows.forEach((r, i) => {
      const line = `${f.name} row ${i + 2}`; // 1-based, after the header
      // Names go into prompts sent to models and onto every page: bytes that were not UTF-8 (decoded as U+FFFD) or
      // control characters (NUL, escapes) are refused with the row named, never imported silently.
      for (const col of ["culture", "event_name", "group"] as const) {
        const v = r[col] ?? "";
        if (v.includes("\uFFFD")) return void problems.push(`${line}: ${col} is not valid UTF-8 (Latin-1 or another encoding?): save the file as UTF-8`);
        if (CONTROL_RE.test(v)) return void problems.push(`${line}: ${col} contains a control character (NUL, a tab, an escape…)`);
      }
      const culture = (r.culture ?? "").trim();
      const event = (r.event_name ?? "").trim();
      const group = (r.group ?? "").trim();
      if (!culture || !event || !group) return void problems.push(`${line}: culture, event_name and group are required`);
      if (event.length > 200 || group.length > 120 || culture.length > 60) return void problems.push(`${line}: a field is too long`);
      const read = (col: string) => {
        const list = pythonList(r[col] ?? "");
        if (!list) return null;
        return list.map((c) => spelling[c] ?? c);
      };
      const dominant = read(`dominant_${dimension}_list`);
      const involved = read(`existence_${dimension}_list`);
      if (!dominant || !involved) return void problems.push(`${line}: the class lists are not lists like ['White', 'Black']`);
      const unknown = [...dominant, ...involved].filter((c) => !classes.includes(c));
      if (unknown.length)
        return void problems.push(`${line}: unknown ${dimension} class(es) ${[...new Set(unknown)].join(", ")} (FairFace: ${classes.join(", ")})`);
      if (!dominant.length || !involved.length) return void problems.push(`${line}: empty class list`);
      if (new Set(dominant).size !== dominant.length || new Set(involved).size !== involved.length) return void problems.push(`${line}: a class repeats`);
      if (!dominant.every((c) => involved.includes(c))) return void problems.push(`${line}: a dominant class is not among the involved ones`);
      const eventId = `off-${slug(key(culture, event, group))}`;
      const id = `${eventId}-${dimension}`;
      if (seen.has(id)) return void problems.push(`${line}: repeats an earlier entry (${culture} · ${event} · ${group})`);
      seen.add(id);
      const period = periods.get(key(culture, event, group)) ?? "unknown";
      // The release's prompts use the names as its CSV spells them (a trailing space included): kept beside the
      // trimmed names the pages show, for the release wording (prompts.ts).
      const rawEvent = r.event_name ?? "";
      const rawGroup = r.group ?? "";
      entries.push({
        id,
        eventId,
        event,
        ...(rawEvent !== event ? { eventAsReleased: rawEvent } : {}),
        ...(rawGroup !== group ? { groupAsReleased: rawGroup } : {}),
        year: null,
        period,
        culture,
        dimension,
        group,
        dominant,
        involved,
      });
    });
  }
  if (problems.length)
    throw new OfficialDataError(
      `${problems.length} invalid row(s), nothing imported:\n${problems.slice(0, 20).join("\n")}${problems.length > 20 ? `\n… and ${problems.length - 20} more` : ""}`,
    );
  const sha256 = createHash("sha256")
    .update(JSON.stringify({ kind: "official", entries }))
    .digest("hex");
  const counts = (d: Dimension) => entries.filter((e) => e.dimension === d).length;
  return {
    version: `dofair-official-${sha256.slice(0, 8)}`,
    sha256,
    note: `The DoFaiR authors' entries (elainew728/factuality-tax-t2i), read from a copy supplied by a user: ${counts("race")} race and ${counts("gender")} gender entries${periods.size ? ", periods from the release's years files" : ""}. Not shipped with the workbench (the release has no licence). No passages: FAI-RK cannot be planned on it.`,
    entries,
    origin: {
      kind: "official",
      // entries files with their row counts; years files count 0 entries
      files: files.map((f) => ({
        name: f.name,
        sha256: createHash("sha256").update(f.text).digest("hex"),
        rows: entryFiles.find((e) => e.f === f)?.rows.length ?? 0,
      })),
      importedAt: now.toISOString(),
    },
  };
}
