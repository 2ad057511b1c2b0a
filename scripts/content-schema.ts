// npm run content:schema — writes docs/schemas/content-set.schema.json from lib/content/schema.ts.
import { writeFileSync } from "node:fs";
import { contentJsonSchema } from "../lib/content/json-schema";

writeFileSync("docs/schemas/content-set.schema.json", JSON.stringify(contentJsonSchema(), null, 2) + "\n");
