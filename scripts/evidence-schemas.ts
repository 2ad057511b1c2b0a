// npm run evidence:schemas — writes docs/schemas/evidence-*.schema.json and dsse-envelope.schema.json from lib/evidence.
import { writeFileSync } from "node:fs";
import { evidenceJsonSchemas } from "../lib/evidence/json-schemas";

for (const [name, schema] of Object.entries(evidenceJsonSchemas())) writeFileSync(`docs/schemas/${name}`, JSON.stringify(schema, null, 2) + "\n");
