import { db } from "@/lib/db";
import { facelessImages } from "@/lib/engine";
import { jsonRead } from "@/lib/server/http";

/** Images without a face in the review scope, to draw missed faces on. */
export const GET = jsonRead("faces.review", (query, { viewer }) => facelessImages(db(), { ...query, annotator: viewer!.id }));
