// The content a run was planned from, as far as a verifier can know it. Its digest (`sha256`) is each suite's own:
// over the source files of the built-in content (the statistics, scenarios, events or reference a suite ships, with
// its prompt generator's version), or over the canonical set for a team's content set. A bundle
// carries the content itself, not those source files — so a bundle claiming the built-in digest is compared with
// the built-in content this verifier ships, byte for byte (a truth flipped under the real digest is named); a content
// set's digest is recomputed from the set it carries (the suite's parser refuses one that does not hash to it); any
// other content is the bundle's word, and the check says so.
import type { AnySuite } from "../../suites/types";

export function checkContent(suite: AnySuite, carried: { version: string; sha256: string; contentJson: string }, problem: (p: string) => void): string {
  const own = suite.content() as { version: string; sha256: string };
  if (carried.sha256 === own.sha256) {
    if (carried.contentJson !== JSON.stringify(own)) {
      problem(
        `content.json claims the built-in content ${own.version} (SHA-256 ${own.sha256.slice(0, 12)}…) but is not it: ${firstDifference(carried.contentJson, JSON.stringify(own))}`,
      );
      return "";
    }
    return `the built-in content ${own.version}, byte for byte as this verifier ships it`;
  }
  if (suite.launchContent) return `the content set ${carried.version}, its SHA-256 recomputed from the set the bundle carries`;
  return `content ${carried.version} is not the built-in content this verifier ships (${own.version}): its SHA-256 covers source files the bundle does not carry, so its statistics are the bundle's word`;
}

/** Where two JSON texts first part, with a little context (what a reader needs to find the edit). */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const at = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 60), i + 40));
  return `at character ${i}, the bundle's ${at(a)}, the built-in ${at(b)}`;
}
