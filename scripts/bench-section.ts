// Benchmarks write their results into docs/BENCHMARKS.md: one "## …" section per benchmark, replaced in place.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Replaces the section whose heading starts with `heading` (or appends it), keeping every other section. */
export function writeBenchSection(heading: string, section: string) {
  const docs = path.join(process.cwd(), "docs/BENCHMARKS.md");
  const current = existsSync(docs) ? readFileSync(docs, "utf8") : "# Benchmarks\n\n";
  const start = current.indexOf(heading);
  const next = start < 0 ? -1 : current.indexOf("\n## ", start + 5);
  const updated = start < 0 ? `${current.trimEnd()}\n\n${section}` : `${current.slice(0, start)}${section}${next < 0 ? "" : `\n${current.slice(next + 1)}`}`;
  writeFileSync(docs, updated);
  process.stderr.write(`written to ${docs}\n`);
}
