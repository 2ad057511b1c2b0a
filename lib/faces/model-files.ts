// Where the face models live and how they are checked. Used by the setup script (install time) and the app.
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";

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
