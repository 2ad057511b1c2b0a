import { importOpenBody } from "@/lib/server/api/schemas";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { badRequest, notFound } from "@/lib/core/errors";
import { jsonWrite } from "@/lib/server/http";
import { createUpload } from "@/lib/images";
import { DEFAULT_SUITE_ID, suiteOf } from "@/lib/suites";
import { importableModel } from "@/lib/features/runs/models";

// The shape /api/v1's document describes (lib/server/api/schemas.ts).
const schema = importOpenBody;

/** Opens an import: files are then streamed one by one (PUT …/files) and committed once (POST …/commit). */
export const POST = jsonWrite(
  "images.import",
  async (body) => {
    const req = schema.parse(body);
    if (!(await importableModel(db(), req.model))) throw notFound(`text-to-image model "${req.model}"`);
    const suite = suiteOf(req.suite);
    if (suite.id !== DEFAULT_SUITE_ID && !suite.importer) throw badRequest(`${suite.name} runs cannot be imported`);
    if (req.instrument === "clip" && !suite.clipGroups) throw badRequest(`${suite.name} images are labelled by faces: it has no CLIP instrument`);
    return { uploadId: createUpload(env().dataDir, req) };
  },
  { maxBytes: 4096, status: 201 },
);
