import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import {
  ImageValidationError,
  ImportNameError,
  imageRelPath,
  resolveStoredImage,
  safeEntryName,
  sniffImageType,
  storeImage,
  targetFromName,
  targetsFromManifest,
  validateImage,
} from "../lib/images";

const SHARED = path.resolve(__dirname, "../../shared/models/test-images");
const hasShared = existsSync(SHARED);
function png(width: number, height: number): Buffer {
  const p = new PNG({ width, height });
  p.data.fill(200);
  return PNG.sync.write(p);
}

describe("image validation (by content)", () => {
  it("recognises PNG, JPEG and WebP by their magic bytes, not their names", () => {
    expect(sniffImageType(png(20, 20))?.mime).toBe("image/png");
    expect(sniffImageType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))?.ext).toBe("jpg");
    expect(sniffImageType(Buffer.from("RIFF\0\0\0\0WEBPVP8 "))?.ext).toBe("webp");
    expect(sniffImageType(Buffer.from("GIF89a"))).toBeNull();
    expect(sniffImageType(Buffer.from("<svg></svg>"))).toBeNull();
  });
  it("decodes and measures a valid PNG", () => {
    expect(validateImage(png(64, 48))).toMatchObject({ mime: "image/png", width: 64, height: 48 });
  });
  it.skipIf(!hasShared)("decodes the shared JPEG and PNG photos", () => {
    expect(validateImage(readFileSync(path.join(SHARED, "grace-hopper-512.jpg")))).toMatchObject({ ext: "jpg", width: 512, height: 512 });
    expect(validateImage(readFileSync(path.join(SHARED, "cat-chelsea.png")))).toMatchObject({ ext: "png", width: 451, height: 300 });
  });
  it.each([
    ["an empty file", Buffer.alloc(0), /empty/],
    ["text named .png", Buffer.from("hello, I am not an image"), /not a PNG, JPEG or WebP/],
    ["a truncated PNG", png(64, 64).subarray(0, 60), /cannot be decoded/],
    ["a tiny image", png(4, 4), /too small/],
  ])("rejects %s with a reason", (_n, buf, message) => {
    expect(() => validateImage(buf)).toThrow(ImageValidationError);
    expect(() => validateImage(buf)).toThrow(message);
  });
});

describe("content-addressed storage", () => {
  it("stores by sha256, once, and resolves only its own paths", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fof-img-"));
    const buf = png(32, 32);
    const a = storeImage(dir, buf, validateImage(buf));
    const b = storeImage(dir, buf, validateImage(buf));
    expect(a).toEqual(b);
    expect(a.path).toBe(imageRelPath(a.sha256, "png"));
    expect(readFileSync(resolveStoredImage(dir, a.path)).equals(buf)).toBe(true);
    for (const bad of ["../etc/passwd", "images/../../x.png", `images/zz/${a.sha256}.png`, "/etc/passwd", `images/${a.sha256.slice(0, 2)}/${a.sha256}.svg`])
      expect(() => resolveStoredImage(dir, bad), bad).toThrow();
  });
});

describe("import naming and zip-slip protection", () => {
  it.each(["../evil.png", "a/../../evil.png", "/abs/evil.png", "C:/evil.png", "a\\..\\evil.png", "a/\u0000.png"])("refuses %j", (name) => {
    expect(() => safeEntryName(name)).toThrow(ImportNameError);
  });
  it("maps the folder and flat naming schemes", () => {
    expect(targetFromName("midjourney/subjective/crime-rate/lowest/img_01.png")).toEqual({ test: "subjective", statisticId: "crime-rate", level: "lowest" });
    expect(targetFromName("objective__hiv-rate__highest__7.jpg")).toEqual({ test: "objective", statisticId: "hiv-rate", level: "highest" });
  });
  it.each([
    ["portrait.png", /does not follow/],
    ["objective/crime/highest/a.png", /unknown statistic id "crime"/],
    ["objective/crime-rate/high/a.png", /unknown level "high"/],
    ["other/crime-rate/highest/a.png", /unknown test "other"/],
  ])("refuses %s by name", (name, message) => {
    expect(() => targetFromName(name)).toThrow(message);
  });
  it("reads a manifest, refusing unknown statistics and duplicates", () => {
    const m = targetsFromManifest([{ file: "./a.png", test: "objective", statistic: "Crime Rate", level: "highest" }]);
    expect(m.get("a.png")).toEqual({ test: "objective", statisticId: "crime-rate", level: "highest" });
    expect(() => targetsFromManifest([{ file: "a.png", test: "objective", statistic: "Nope", level: "highest" }])).toThrow(/unknown statistic/);
    expect(() =>
      targetsFromManifest([
        { file: "a.png", test: "objective", statistic: "crime-rate", level: "highest" },
        { file: "a.png", test: "objective", statistic: "crime-rate", level: "lowest" },
      ]),
    ).toThrow(/listed twice/);
    expect(() => targetsFromManifest([{ file: "../a.png", test: "objective", statistic: "crime-rate", level: "highest" }])).toThrow(/traversal/);
  });
});
