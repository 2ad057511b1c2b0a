import { createReadStream } from "node:fs";
import { access } from "node:fs/promises";
import { createInterface } from "node:readline";
import { InterchangeError, parseInterchange } from "../../lib/interchange";
import { scoreGroups } from "../../lib/metrics";
import { DEFAULT_PROFILE, SCORING_PROFILES, type ScoringProfile } from "../../lib/metrics/profiles";

async function readLines(file: string): Promise<string[]> {
  if (file !== "-") {
    try {
      await access(file);
    } catch {
      throw new Error(`cannot read ${file}: no such file`);
    }
  }
  const input = file === "-" ? process.stdin : createReadStream(file, { encoding: "utf8" });
  const lines: string[] = [];
  for await (const line of createInterface({ input, crlfDelay: Infinity })) lines.push(line);
  return lines;
}

export async function scoreCommand(file: string, opts: { pretty?: boolean; profile?: string }) {
  const profile = opts.profile ?? DEFAULT_PROFILE;
  if (!(SCORING_PROFILES as readonly string[]).includes(profile)) throw new Error(`--profile must be one of ${SCORING_PROFILES.join(", ")}`);
  const lines = await readLines(file);
  try {
    const records = parseInterchange(lines);
    const results = scoreGroups(records, profile as ScoringProfile);
    process.stdout.write(JSON.stringify({ profile, results }, null, opts.pretty ? 2 : undefined) + "\n");
  } catch (err) {
    if (err instanceof InterchangeError) {
      throw new Error(`${file}: ${err.totalErrors} invalid line${err.totalErrors > 1 ? "s" : ""}, nothing scored\n${err.message}`);
    }
    throw err;
  }
}
