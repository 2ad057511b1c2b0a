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
  fairface: { file: "fairface.onnx" },
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
 * detector from public/models (placed by the install step). Null when absent.
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
