import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { NextResponse } from "next/server";
import { env, faceChipMethod } from "@/lib/env";
import { locateFaceModel, type FaceModelKind } from "@/lib/faces/model-files";

/** The files the Label and Review pages load: the face pipeline's, and CLIP's pair for runs read with it. */
const FACE_MODEL_KINDS = ["detector", "landmarker", "fairface", "clipVision", "clipTexts"] as const;
import { jsonRead } from "@/lib/server/http";

/** The models for the Label and Review pages, read from disk at request time (never from a CDN); FairFace absent: 204. */
export const GET = jsonRead<{ kind: string }>("signed-in", async (_query, { params }) => {
  const { kind } = params;
  if (!(FACE_MODEL_KINDS as readonly string[]).includes(kind)) return NextResponse.json({ error: "unknown model" }, { status: 404 });
  const e = env();
  // Square crops chosen for this deployment (FOF_FACE_CHIPS=square): no page cuts aligned chips, so none is served.
  if (kind === "landmarker" && faceChipMethod(e) === "square")
    return NextResponse.json({ error: "FOF_FACE_CHIPS=square: faces are cut as square crops here" }, { status: 404 });
  const found = locateFaceModel(kind as FaceModelKind, { cwd: process.cwd(), dataDir: e.dataDir, fairfacePath: e.FAIRFACE_MODEL_PATH });
  // FairFace is optional (its weights cannot be shipped): its absence is an answer, not an error — 204, so the pages
  // that ask on every load (Label, Review) fall back to the browser's copy without a console error each time.
  if (!found && kind === "fairface") return new Response(null, { status: 204, headers: { "cache-control": "no-cache", "x-fof-model": "not installed" } });
  if (!found)
    return NextResponse.json(
      {
        error: kind.startsWith("clip")
          ? "CLIP is not installed on this server: export it with the suite's tool (docs/operations.md, CLIP)"
          : `face ${kind} not installed: run \`npm run setup:models\``,
      },
      { status: 404 },
    );
  return new Response(Readable.toWeb(createReadStream(found.file)) as ReadableStream, {
    headers: {
      "content-type": kind === "clipTexts" ? "application/json" : "application/octet-stream",
      "content-length": String(found.bytes),
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
    },
  });
});
