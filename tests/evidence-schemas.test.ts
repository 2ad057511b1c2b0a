// The evidence formats' published JSON Schemas (docs/schemas) are what the verifiers parse with, kept current.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evidenceJsonSchemas } from "../lib/evidence/json-schemas";

describe("evidence JSON Schemas", () => {
  it("are current with the verifiers' own schemas", () => {
    for (const [name, schema] of Object.entries(evidenceJsonSchemas()))
      expect(JSON.parse(readFileSync(`docs/schemas/${name}`, "utf8")), `${name}: run npm run evidence:schemas`).toEqual(JSON.parse(JSON.stringify(schema)));
  });
});
