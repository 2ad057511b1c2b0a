// Where the face models live and how they are checked. Used by the setup script (install time) and the app.
import { createHash } from "node:crypto";
import { createReadStream, existsSync, statSync } from "node:fs";
import path from "node:path";

export const MODEL_FILES = {
  detector: {
    file: "ultraface-rfb-320.onnx",
    sha256: "6c0256ccd3164f844736a401faf936ec2930764a87ae39442180887d0c5c8854",
    /** the npm package that ships it (MIT); only this file is taken out of the tarball */
    npmPackage: "faceplugin-face-recognition-js@0.0.1",
    pathInPackage: "package/model/fr_detect.onnx",
  },
  /** 68 facial landmarks (lib/faces/landmarks.ts), for FairFace's aligned chips; from the same package */
  landmarker: {
    file: "face-landmarks-68.onnx",
    sha256: "f10b0ba1d2a8a099adefede1ebf3733e44fe370715e7303dbeb7f59c02142258",
    npmPackage: "faceplugin-face-recognition-js@0.0.1",
    pathInPackage: "package/model/fr_landmark.onnx",
  },
  fairface: { file: "fairface.onnx" },
  /** CLIP's vision tower and its text-embedding file (a suite's own instrument), written by an operator's export
   *  (the suite's tools/clip-export.py) into the data directory's models/ folder or public/models */
  clipVision: { file: "clip-vit-l14-vision.onnx" },
  clipTexts: { file: "clip-texts.json" },
} as const;

export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** True when the file exists and has the expected checksum (any checksum when none is expected). */
export async function verifyFile(file: string, expectedSha256?: string): Promise<boolean> {
  if (!existsSync(file)) return false;
  if (!expectedSha256) return true;
  return (await sha256File(file)) === expectedSha256.toLowerCase();
}

export type FaceModelKind = keyof typeof MODEL_FILES;

/**
 * Where the server finds a face model: FairFace from FAIRFACE_MODEL_PATH, else public/models, else the data
 * directory's models/ folder (both read at request time, so a model installed after the build is served); the
 * detector and the landmarker from public/models (placed by the install step) or the data directory. Null when absent.
 */
export function locateFaceModel(kind: FaceModelKind, where: { cwd: string; dataDir: string; fairfacePath?: string }): { file: string; bytes: number } | null {
  const name = MODEL_FILES[kind].file;
  const candidates = [
    ...(kind === "fairface" && where.fairfacePath ? [path.resolve(where.fairfacePath)] : []),
    path.join(where.cwd, "public", "models", name),
    path.join(where.dataDir, "models", name),
  ];
  for (const file of candidates) if (existsSync(file) && statSync(file).isFile()) return { file, bytes: statSync(file).size };
  return null;
}

/** The CLIP pair where the server finds it (both files, or null: CLIP runs then wait for a labeller that has them). */
export function clipModelFiles(
  where: { cwd: string; dataDir: string },
  given: { clipVision?: string; clipTexts?: string } = {},
): { vision: string; texts: string } | null {
  const vision = given.clipVision ?? locateFaceModel("clipVision", where)?.file;
  const texts = given.clipTexts ?? locateFaceModel("clipTexts", where)?.file;
  if ((given.clipVision || given.clipTexts) && !(vision && texts))
    throw new Error("CLIP needs both files: the vision tower (--clip-vision) and its text-embedding file (--clip-texts)");
  return vision && texts ? { vision, texts } : null;
}

/**
 * The files a server-side labeller loads: those given, else where the server finds them; the landmarker only for
 * aligned chips. Throws a readable error naming what is missing and how to get it.
 */
export function labellerModelFiles(
  where: { cwd: string; dataDir: string; fairfacePath?: string },
  chips: "dlib-5pt-800" | "square",
  given: { detector?: string; classifier?: string; landmarker?: string } = {},
): { detector: string; classifier: string; landmarker: string | null } {
  const detector = given.detector ?? locateFaceModel("detector", where)?.file;
  const classifier = given.classifier ?? locateFaceModel("fairface", where)?.file;
  const landmarker = chips !== "square" ? (given.landmarker ?? locateFaceModel("landmarker", where)?.file) : null;
  if (!detector) throw new Error("no face detector: run `npm run setup:models`, or pass --detector <file.onnx>");
  if (!classifier) throw new Error("no FairFace model: set FAIRFACE_MODEL_PATH (or copy it to public/models/fairface.onnx), or pass --classifier <file.onnx>");
  if (landmarker === undefined)
    throw new Error(
      "no landmark model for FairFace's aligned chips: run `npm run setup:models`, or pass --landmarker <file.onnx> (FOF_FACE_CHIPS=square labels square crops instead, not comparable with the papers)",
    );
  return { detector, classifier, landmarker };
}

const servedSums = new Map<string, { mtimeMs: number; size: number; sha256: Promise<string> }>();

/**
 * The sha256 of the file the server serves for `kind` (what /api/face-models/<kind> sends), or null when it serves
 * none. Cached per file until it changes on disk, so checking every label post costs a stat.
 */
export async function servedModelSha256(kind: FaceModelKind, where: { cwd: string; dataDir: string; fairfacePath?: string }): Promise<string | null> {
  const found = locateFaceModel(kind, where);
  if (!found) return null;
  const s = statSync(found.file);
  const cached = servedSums.get(found.file);
  if (cached && cached.mtimeMs === s.mtimeMs && cached.size === s.size) return cached.sha256;
  const entry = { mtimeMs: s.mtimeMs, size: s.size, sha256: sha256File(found.file) };
  servedSums.set(found.file, entry);
  return entry.sha256;
}

/**
 * Refuses a labeller's declaration that names a file this server served with another checksum: the detector and the
 * landmarker always come from the server, the classifier when the page says it took the server's file, CLIP's
 * tower and text file always. What the server did not serve stays the labeller's word (provenance says so).
 */
export async function checkDeclaredModels(
  declared: Array<{ kind: FaceModelKind; sha256: string | undefined; served: boolean }>,
  where: { cwd: string; dataDir: string; fairfacePath?: string },
): Promise<string | null> {
  for (const d of declared) {
    if (!d.served || !d.sha256) continue;
    const sum = await servedModelSha256(d.kind, where);
    if (sum && sum !== d.sha256.toLowerCase())
      return `the ${d.kind} declared (sha256 ${d.sha256.slice(0, 12)}…) is not the file this server serves (sha256 ${sum.slice(0, 12)}…): reload the page to load the current file`;
  }
  return null;
}
