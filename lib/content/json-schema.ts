// The published JSON Schema of content.json, generated from the one zod schema (./schema.ts): editors validate a
// file as a team types it; `fof content validate` adds the checks a schema cannot say (declared classes, templates'
// placeholders, people per question). docs/schemas/content-set.schema.json is this, checked current by a test.
import { z } from "zod";
import { contentSetSchema } from "./schema";

const CONTENT_SCHEMA_ID = "https://fact-or-fair.dev/schemas/content-set-v1.json";

export function contentJsonSchema(): Record<string, unknown> {
  return {
    $id: CONTENT_SCHEMA_ID,
    title: "FACT-OR-FAIR content set",
    description:
      "A team's own FACT-OR-FAIR content: attributes and classes, statistics with sources, scenarios, templates, language (docs/user-guide.md, Your own benchmark).",
    ...z.toJSONSchema(contentSetSchema, { target: "draft-2020-12", unrepresentable: "any" }),
  };
}
