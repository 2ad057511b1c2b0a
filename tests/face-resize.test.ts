// FairFace's pre-resize (predict.py: the longer side to 800 px with dlib.resize_image) against dlib itself: the
// fixture's outputs were made by dlib's resize_image (tests/fixtures/dlib-resize: resize.cpp, make.ts), and the
// port must give the same bytes — up and down, odd sizes, both orientations, and the shared photos.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dlibResizeRgb, fairfaceSize } from "../lib/faces/resize";
import expected from "./fixtures/dlib-resize/expected.json";
import { inputs } from "./fixtures/dlib-resize/inputs";

const hasShared = existsSync(path.resolve(__dirname, "../../shared/models/test-images"));
const rgbSha = (data: ArrayLike<number>) => {
  const rgb = Buffer.alloc((data.length / 4) * 3);
  for (let i = 0; i < data.length / 4; i++) for (let c = 0; c < 3; c++) rgb[i * 3 + c] = data[i * 4 + c];
  return createHash("sha256").update(rgb).digest("hex");
};

describe("FairFace's pre-resize", () => {
  it("sizes as predict.py does: the longer side 800, the other truncated by int()", () => {
    expect(fairfaceSize(37, 23)).toEqual({ width: 800, height: 497 }); // 497.29…
    expect(fairfaceSize(640, 960)).toEqual({ width: 533, height: 800 }); // 533.33…
    expect(fairfaceSize(512, 512)).toEqual({ width: 800, height: 800 });
    expect(fairfaceSize(1003, 611)).toEqual({ width: 800, height: 487 });
  });

  it.skipIf(!hasShared)("gives dlib's resize_image byte for byte", () => {
    const images = expected.images as Record<string, { rows: number; cols: number; sha256: string; width: number; height: number }>;
    const seen = inputs();
    expect(seen.map((s) => s.name)).toEqual(Object.keys(images));
    for (const { name, image } of seen) {
      const want = images[name];
      expect([image.width, image.height], name).toEqual([want.width, want.height]);
      const out = dlibResizeRgb(image, want.rows, want.cols);
      expect([out.width, out.height], name).toEqual([want.cols, want.rows]);
      expect(rgbSha(out.data), name).toBe(want.sha256);
    }
  });

  it("truncates as dlib does (a flat 200 comes back 200 or 199, as dlib's own output), and keeps an image of its own size", () => {
    const flat = { width: 5, height: 3, data: new Uint8ClampedArray(5 * 3 * 4).fill(200) };
    const values = new Set([...dlibResizeRgb(flat, 7, 11).data].filter((_, i) => i % 4 !== 3));
    expect([...values].sort()).toEqual([199, 200]); // dlib 19.24 on this image: {199, 200}
    const img = { width: 4, height: 2, data: Uint8ClampedArray.from({ length: 32 }, (_, i) => (i % 4 === 3 ? 255 : i * 7)) };
    expect([...dlibResizeRgb(img, 2, 4).data]).toEqual([...img.data]);
  });
});
