// A lone UTF-16 surrogate in a bundle's text is stored and read back differently by the two verifiers' databases:
// better-sqlite3 (`fof verify`) writes it as U+FFFD and reads SQLite's bytes for it as three U+FFFD, while sql.js
// (/verify) keeps it in short strings (hostile re-test, 2026-12-07). No workbench writes one — a string reaching the
// database from JavaScript is UTF-8-encoded with lone surrogates replaced — so a bundle holding one was made by hand,
// and both verifiers refuse it (under completeness) before either database sees it.
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The fields of a row whose text holds a lone surrogate, named. */
export function loneSurrogates(file: string, row: Record<string, unknown> | null | undefined): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(row ?? {}))
    if (typeof v === "string" && LONE.test(v)) out.push(`${file}: ${k} holds a lone UTF-16 surrogate (no workbench writes one)`);
  return out;
}
