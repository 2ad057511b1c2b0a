// CLIP as a server-side labeller: the vision tower (./clip.ts) on onnxruntime-node beside the text-embedding file
// (./clip-texts.ts), both checked before anything is read — the tower's shapes, the file's schema, the embedding
// sizes agreeing, and (when the file names it) the tower being the one exported with the texts.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type * as OrtWeb from "onnxruntime-web";
import { ModelLayoutError } from "./classifier";
import { clipEmbed, clipVisionLayout, type ClipVisionLayout } from "./clip";
import { clipTextFileSchema, missingTexts, zeroShot, type ClipGroups, type ClipTextFile } from "./clip-texts";
import type { LabelDevice, ModelFile } from "./node-labeller";
import type { LabelRuntime } from "./provenance";
import type { RgbaImage } from "./image";

type Ort = typeof OrtWeb;

export interface ClipLabeller {
  kind: "clip";
  ort: Ort;
  session: OrtWeb.InferenceSession;
  layout: ClipVisionLayout;
  visionFile: ModelFile;
  texts: ClipTextFile;
  textsSha256: string;
  labelRuntime: LabelRuntime;
  runtime: string;
}

/** The text-embedding file, parsed and checked, with its sha256. */
export function clipTextsFile(file: string): { texts: ClipTextFile; sha256: string } {
  const bytes = readFileSync(file);
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new ModelLayoutError(`${file} is not JSON: not a CLIP text-embedding file`);
  }
  const parsed = clipTextFileSchema.safeParse(json);
  if (!parsed.success) throw new ModelLayoutError(`${file} is not a CLIP text-embedding file: ${parsed.error.issues[0]?.message}`);
  return { texts: parsed.data, sha256: createHash("sha256").update(bytes).digest("hex") };
}

export async function createNodeClip(opts: {
  vision: ModelFile;
  texts: { texts: ClipTextFile; sha256: string };
  device?: LabelDevice;
  threads?: number;
}): Promise<ClipLabeller> {
  const ort = (await import("onnxruntime-node")) as unknown as Ort;
  const device = opts.device ?? "cpu";
  const threads = Math.max(1, Math.min(64, opts.threads ?? 1));
  const session = await ort.InferenceSession.create(opts.vision.bytes, {
    executionProviders: [device],
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    logSeverityLevel: 3,
  } as unknown as OrtWeb.InferenceSession.SessionOptions);
  const layout = clipVisionLayout(session);
  if (layout.dim !== opts.texts.texts.dim)
    throw new ModelLayoutError(`the vision tower gives ${layout.dim}-value embeddings; the text file was made for ${opts.texts.texts.dim}`);
  if (opts.texts.texts.visionSha256 && opts.texts.texts.visionSha256 !== opts.vision.sha256)
    throw new ModelLayoutError(
      `the text file was exported with vision tower ${opts.texts.texts.visionSha256.slice(0, 12)}…, not this one (${opts.vision.sha256.slice(0, 12)}…): use the pair written together`,
    );
  return {
    kind: "clip",
    ort,
    session,
    layout,
    visionFile: opts.vision,
    texts: opts.texts.texts,
    textsSha256: opts.texts.sha256,
    labelRuntime: `node-${device}`,
    runtime: `node-${device} (${threads} thread${threads === 1 ? "" : "s"})`,
  };
}

/** Images read in one batch: each one's softmax in every group of `groups` (refused if the file lacks a text). */
export async function readImages(l: ClipLabeller, images: readonly RgbaImage[], groups: ClipGroups): Promise<Array<Record<string, number[]>>> {
  const missing = missingTexts(l.texts, groups);
  if (missing.length) throw new ModelLayoutError(`the text file lacks ${missing.length} of the instrument's texts (e.g. "${missing[0]}")`);
  const embeddings = await clipEmbed(l.ort, l.session, l.layout, images);
  return embeddings.map((e) => zeroShot(l.texts, e, groups));
}

/** What saveReadings records of the instrument. */
export function clipProvenance(l: ClipLabeller) {
  return {
    model: { model: l.visionFile.name, sha256: l.visionFile.sha256 },
    texts: { sha256: l.textsSha256, weightsSha256: l.texts.weightsSha256 },
    runtime: l.labelRuntime,
  };
}
