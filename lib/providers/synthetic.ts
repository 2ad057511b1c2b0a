// A built-in image model that needs no key: it composes real face photos into one image with a known mix, so an
// image suite runs end to end offline (plan → images → faces → metrics). It is not a model of anything — which
// faces appear follows a documented rule, and the rule is written into each image's record (its "revised prompt").
//
// The rule: a seeded generator (sha256 of the prompt and the query's stream key) picks 1–4 faces. Each face is a
// variant of a photo (photo × tint × mirror), because the photos are few and the classifier should see different
// inputs. A prompt that asks for diversity ("diverse", "irrespective") draws every face at random; any other prompt
// repeats one dominant variant (chosen by the prompt alone) with probability 0.8. Labels still come from the face
// classifier, never from this rule.
import { projectRoot } from "../paths";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import jpeg from "jpeg-js";
import { PNG } from "pngjs";
import type { ImageProvider } from "./images";
import { ProviderError } from "./types";

export const SYNTHETIC_IMAGE_SLUG = "baseline:synthetic-faces";
export const SYNTHETIC_DESCRIPTION = "composes stored face photos into 512×512 images with a known, seeded mix (no key; for offline runs and tests)";

const TINTS = [
  { name: "neutral", gain: [1, 1, 1] },
  { name: "warm", gain: [1.15, 1, 0.8] },
  { name: "cool", gain: [0.8, 1, 1.2] },
  { name: "dark", gain: [0.55, 0.5, 0.45] },
  { name: "bright", gain: [1.25, 1.2, 1.15] },
] as const;

interface Photo {
  name: string;
  width: number;
  height: number;
  rgba: Uint8Array;
}

/**
 * The photos it composes: FOF_SYNTHETIC_FACES (comma-separated paths; relative ones from the project root) or the
 * shared test photos beside the project — from its root, so a server or CLI started in any folder finds them.
 */
export function syntheticFacePaths(setting: string | undefined, root = projectRoot()): string[] {
  if (setting)
    return setting
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => path.resolve(root, p));
  const shared = path.resolve(root, "../shared/models/test-images");
  return ["astronaut-eileen-collins.png", "grace-hopper-512.jpg"].map((f) => path.join(shared, f));
}

/** Why the synthetic image model cannot draw (photos missing), or null: checked before a launch and on the Models page. */
export function syntheticProblem(faces: readonly string[]): string | null {
  const missing = faces.filter((f) => !existsSync(f));
  if (faces.length && !missing.length) return null;
  return `the synthetic image model needs face photos: ${missing.join(", ") || "none configured"} not found (set FOF_SYNTHETIC_FACES to comma-separated photo paths)`;
}

function decode(file: string): Photo {
  const buf = readFileSync(file);
  if (buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    const png = PNG.sync.read(buf);
    return { name: path.basename(file).replace(/\.[^.]+$/, ""), width: png.width, height: png.height, rgba: new Uint8Array(png.data) };
  }
  const img = jpeg.decode(buf, { useTArray: true, maxMemoryUsageInMB: 64 });
  return { name: path.basename(file).replace(/\.[^.]+$/, ""), width: img.width, height: img.height, rgba: img.data };
}

/** Draws one photo variant into a cell of the canvas (bilinear enough for faces: 2×2 box per target pixel). */
function drawCell(canvas: Uint8Array, size: number, cx: number, cy: number, cell: number, photo: Photo, tint: readonly number[], mirror: boolean) {
  const sx = photo.width / cell;
  const sy = photo.height / cell;
  for (let y = 0; y < cell; y++)
    for (let x = 0; x < cell; x++) {
      const px = Math.min(photo.width - 1, Math.floor((mirror ? cell - 1 - x : x) * sx));
      const py = Math.min(photo.height - 1, Math.floor(y * sy));
      const px2 = Math.min(photo.width - 1, px + 1);
      const py2 = Math.min(photo.height - 1, py + 1);
      const o = ((cy + y) * size + (cx + x)) * 4;
      for (let c = 0; c < 3; c++) {
        const v =
          (photo.rgba[(py * photo.width + px) * 4 + c] +
            photo.rgba[(py * photo.width + px2) * 4 + c] +
            photo.rgba[(py2 * photo.width + px) * 4 + c] +
            photo.rgba[(py2 * photo.width + px2) * 4 + c]) /
          4;
        canvas[o + c] = Math.max(0, Math.min(255, Math.round(v * tint[c])));
      }
      canvas[o + 3] = 255;
    }
}

function seeded(text: string): () => number {
  let counter = 0;
  const base = createHash("sha256").update(text).digest();
  let block = base;
  let pos = 0;
  return () => {
    if (pos + 4 > block.length) {
      block = createHash("sha256").update(base).update(String(++counter)).digest();
      pos = 0;
    }
    const v = block.readUInt32BE(pos) / 2 ** 32;
    pos += 4;
    return v;
  };
}

export interface SyntheticMix {
  faces: Array<{ photo: string; tint: string; mirror: boolean }>;
  diverse: boolean;
}

/** The mix the rule gives a prompt (pure: tests and the records read it). */
export function syntheticMix(prompt: string, streamKey: string, photos: readonly string[]): SyntheticMix {
  const variants = photos.flatMap((photo) => TINTS.flatMap((t) => [false, true].map((mirror) => ({ photo, tint: t.name, mirror }))));
  const rand = seeded(`${prompt}|${streamKey}`);
  const dominant = variants[Math.floor(seeded(prompt)() * variants.length)];
  const diverse = /\bdivers|irrespective/i.test(prompt);
  const n = 1 + Math.floor(rand() * 4);
  const faces = Array.from({ length: n }, () => (diverse || rand() >= 0.8 ? variants[Math.floor(rand() * variants.length)] : dominant));
  return { faces, diverse };
}

export function syntheticImageProvider(opts: { faces: string[] }): ImageProvider {
  let photos: Photo[] | null = null;
  const load = () => {
    if (photos) return photos;
    const problem = syntheticProblem(opts.faces);
    if (problem) throw new ProviderError(problem, "fatal");
    photos = opts.faces.map(decode);
    return photos;
  };
  return {
    name: "synthetic-images",
    async generate(req) {
      const loaded = load();
      const size = 512;
      const cell = 256;
      const mix = syntheticMix(
        req.prompt,
        req.streamKey ?? "",
        loaded.map((p) => p.name),
      );
      // Mid-grey background; faces in a 2×2 grid, cells left empty when fewer than 4 faces.
      const canvas = new Uint8Array(size * size * 4).fill(200);
      mix.faces.forEach((f, i) => {
        const photo = loaded.find((p) => p.name === f.photo)!;
        const tint = TINTS.find((t) => t.name === f.tint)!.gain;
        drawCell(canvas, size, (i % 2) * cell, Math.floor(i / 2) * cell, cell, photo, tint, f.mirror);
      });
      const png = new PNG({ width: size, height: size });
      png.data = Buffer.from(canvas);
      // Paeth on every row: pngjs's default tries all five filters per row, which took ~40 % more time here for a file
      // of the same size (38.6 against 21.6 ms per 512 × 512 image, 375 against 376 KiB); the pixels are the same.
      const bytes = new Uint8Array(PNG.sync.write(png, { filterType: 4 }));
      const described = mix.faces.map((f) => `${f.photo} (${f.tint}${f.mirror ? ", mirrored" : ""})`).join("; ");
      return { bytes, revisedPrompt: `[synthetic image: ${mix.faces.length} face(s)${mix.diverse ? ", diverse draw" : ""}: ${described}]` };
    },
  };
}
