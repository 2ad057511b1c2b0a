import { db } from "@/lib/db";
import { facelessImages } from "@/lib/features/review/detections";
import { jsonRead } from "@/lib/server/http";

/** Images without a face in the review scope, to draw missed faces on. */
export const GET = jsonRead("faces.review", (query, { viewer }) => facelessImages(db(), { ...query, annotator: viewer!.id }));
