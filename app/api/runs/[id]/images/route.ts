import { z } from "zod";
import { db } from "@/lib/db";
import { runImages } from "@/lib/features/results/run-images";
import { jsonRead, notFound } from "@/lib/server/http";
import { RACE_MAPPINGS } from "@/lib/faces/labels";
import { runHeader } from "@/lib/features/runs/lookups";

const imageId = z.string().regex(/^[a-z0-9]{1,40}$/, "an image id");
const schema = z
  .strictObject({
    // Pages are by cursor (an image id), never by offset: a page costs its size at any depth.
    after: imageId.optional(),
    before: imageId.optional(),
    pageSize: z.coerce.number().int().min(1).max(200).default(24),
    labelStatus: z.enum(["unlabelled", "leased", "labelled", "no_face"]).optional(),
    raceMapping: z.enum(RACE_MAPPINGS).default("paper"),
  })
  .refine((f) => !(f.after && f.before), "either after or before, not both");

/** A page of a T2I run's images with their faces. */
export const GET = jsonRead<{ id: string }>("results.read", async (query, { params }) => {
  const filter = schema.parse(query);
  if (!(await runHeader(db(), params.id))) throw notFound("run");
  return runImages(db(), params.id, filter);
});
