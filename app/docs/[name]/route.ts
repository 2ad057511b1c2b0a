import { readFile } from "node:fs/promises";
import path from "node:path";
import { jsonRead, notFound } from "@/lib/server/http";
import { projectRoot } from "@/lib/paths";

/**
 * The guides public pages point to (/verify names what a bundle proves), served as they are in docs/: public, as a
 * reader who checks a bundle has no account. Only these names; the text is Markdown, sent as plain text.
 */
const PUBLIC_DOCS = new Set(["evidence", "scoring", "cli", "api"]);

export const GET = jsonRead<{ name: string }>("public", async (_query, { params }) => {
  const name = params.name.replace(/\.md$/, "");
  if (!PUBLIC_DOCS.has(name)) throw notFound("document");
  const text = await readFile(path.join(projectRoot(), "docs", `${name}.md`), "utf8");
  return new Response(text, {
    headers: { "content-type": "text/markdown; charset=utf-8", "cache-control": "public, max-age=300", "x-content-type-options": "nosniff" },
  });
});
