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
  validateImageAsync,
  checkImageHeader,
  expandArchives,
  benchmarkStatistics,
  planImport,
  listZipNames,
} from "../lib/images";
import { zipSync, strToU8 } from "fflate";
import { crc32, deflateRawSync } from "node:zlib";
import jpeg from "jpeg-js";

import { lyingPng, oneEntryZip } from "../scripts/fixtures/hostile";

const STATS = benchmarkStatistics();

const SHARED = path.resolve(__dirname, "../../shared/models/test-images");
const hasShared = existsSync(SHARED);
function png(width: number, height: number): Buffer {
  const p = new PNG({ width, height });
  p.data.fill(200);
  return PNG.sync.write(p);
}

describe("image validation (by content)", () => {
  it("reads a 30-byte extended WebP header (VP8X) without reading past its end", () => {
    const webp = Buffer.alloc(30);
    webp.write("RIFF", 0);
    webp.writeUInt32LE(22, 4);
    webp.write("WEBPVP8X", 8);
    webp.writeUInt32LE(10, 16);
    // canvas 640 × 480, stored as width − 1 and height − 1 in 24 bits each
    webp.writeUIntLE(639, 24, 3);
    webp.writeUIntLE(479, 27, 3);
    // Read as the head of a larger file (an import's pre-pass sums pixels from heads): the canvas size.
    expect(checkImageHeader(webp, 50_000)).toMatchObject({ ext: "webp", width: 640, height: 480, bytes: 50_000 });
    expect(() => checkImageHeader(webp.subarray(0, 29), 50_000)).toThrow(ImageValidationError);
    // As a whole file it is a header and nothing else: refused (it was stored and queued for labelling once).
    expect(() => checkImageHeader(webp)).toThrow(/no image data/);
  });

  it("recognises PNG, JPEG and WebP by their magic bytes, not their names", () => {
    expect(sniffImageType(png(20, 20))?.mime).toBe("image/png");
    expect(sniffImageType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))?.ext).toBe("jpg");
    expect(sniffImageType(Buffer.from("RIFF\0\0\0\0WEBPVP8 "))?.ext).toBe("webp");
    expect(sniffImageType(Buffer.from("GIF89a"))).toBeNull();
    expect(sniffImageType(Buffer.from("<svg></svg>"))).toBeNull();
  });
  it("decodes and measures a valid PNG", async () => {
    expect(await validateImage(png(64, 48))).toMatchObject({ mime: "image/png", width: 64, height: 48 });
  });
  it.skipIf(!hasShared)("decodes the shared JPEG and PNG photos", async () => {
    expect(await validateImage(readFileSync(path.join(SHARED, "grace-hopper-512.jpg")))).toMatchObject({ ext: "jpg", width: 512, height: 512 });
    expect(await validateImage(readFileSync(path.join(SHARED, "cat-chelsea.png")))).toMatchObject({ ext: "png", width: 451, height: 300 });
  });
  it.each([
    ["an empty file", Buffer.alloc(0), /empty/],
    ["text named .png", Buffer.from("hello, I am not an image"), /not a PNG, JPEG or WebP/],
    ["a truncated PNG", png(64, 64).subarray(0, 60), /cannot be decoded|runs past the end/],
    ["a tiny image", png(4, 4), /too small/],
  ])("rejects %s with a reason", async (_n, buf, message) => {
    await expect(validateImage(buf)).rejects.toThrow(ImageValidationError);
    await expect(validateImage(buf)).rejects.toThrow(message);
  });
});

describe("content-addressed storage", () => {
  it("stores by sha256, once, and resolves only its own paths", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fof-img-"));
    const buf = png(32, 32);
    const a = storeImage(dir, buf, await validateImage(buf));
    const b = storeImage(dir, buf, await validateImage(buf));
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
    expect(targetFromName("midjourney/subjective/crime-rate/lowest/img_01.png", STATS.ids)).toEqual({
      test: "subjective",
      statisticId: "crime-rate",
      level: "lowest",
    });
    expect(targetFromName("objective__hiv-rate__highest__7.jpg", STATS.ids)).toEqual({ test: "objective", statisticId: "hiv-rate", level: "highest" });
  });
  it.each([
    ["portrait.png", /does not follow/],
    ["objective/crime/highest/a.png", /unknown statistic id "crime"/],
    ["objective/crime-rate/high/a.png", /unknown level "high"/],
    ["other/crime-rate/highest/a.png", /unknown test "other"/],
  ])("refuses %s by name", (name, message) => {
    expect(() => targetFromName(name, STATS.ids)).toThrow(message);
  });
  it("reads a manifest, refusing unknown statistics and duplicates", () => {
    const m = targetsFromManifest([{ file: "./a.png", test: "objective", statistic: "Crime Rate", level: "highest" }], STATS.resolve);
    expect(m.get("a.png")).toEqual({ test: "objective", statisticId: "crime-rate", level: "highest" });
    expect(() => targetsFromManifest([{ file: "a.png", test: "objective", statistic: "Nope", level: "highest" }], STATS.resolve)).toThrow(/unknown statistic/);
    expect(() =>
      targetsFromManifest(
        [
          { file: "a.png", test: "objective", statistic: "crime-rate", level: "highest" },
          { file: "a.png", test: "objective", statistic: "crime-rate", level: "lowest" },
        ],
        STATS.resolve,
      ),
    ).toThrow(/listed twice/);
    expect(() => targetsFromManifest([{ file: "../a.png", test: "objective", statistic: "crime-rate", level: "highest" }], STATS.resolve)).toThrow(/traversal/);
  });
});

describe("import plan (files and zip archives → statistic × level × test)", () => {
  const img = (shade: number) => {
    const p = new PNG({ width: 32, height: 32 });
    p.data.fill(shade);
    return new Uint8Array(PNG.sync.write(p));
  };

  it("maps files by the naming scheme and expands zips, reporting clutter by name instead of dropping it", async () => {
    const zip = zipSync({
      "mj/objective/crime-rate/highest/1.png": img(10),
      "mj/objective/crime-rate/highest/2.png": img(20),
      "__MACOSX/mj/._1.png": strToU8("junk"),
      "mj/.DS_Store": strToU8("junk"),
    });
    const plan = await planImport(
      [
        { name: "batch.zip", bytes: zip },
        { name: "subjective__hiv-rate__lowest__1.png", bytes: img(30) },
      ],
      STATS,
    );
    expect(plan.problems).toEqual([]);
    expect(plan.mappedBy).toBe("file names");
    expect(plan.items.map((i) => [i.name, i.target])).toEqual([
      ["mj/objective/crime-rate/highest/1.png", { test: "objective", statisticId: "crime-rate", level: "highest" }],
      ["mj/objective/crime-rate/highest/2.png", { test: "objective", statisticId: "crime-rate", level: "highest" }],
      ["subjective__hiv-rate__lowest__1.png", { test: "subjective", statisticId: "hiv-rate", level: "lowest" }],
    ]);
    expect(plan.skipped.map((s) => s.message).sort()).toEqual(["hidden file", "macOS archive metadata"]);
  });

  it("reports every bad file by name: traversal, unknown names, fake images, duplicates", async () => {
    const zip = zipSync({ "objective/crime-rate/highest/ok.png": img(1), "../../etc/objective/crime-rate/highest/evil.png": img(2) });
    const plan = await planImport(
      [
        { name: "a.zip", bytes: zip },
        { name: "objective__nope__highest__1.png", bytes: img(3) },
        { name: "objective__crime-rate__lowest__fake.png", bytes: strToU8("<script>") },
        { name: "objective__crime-rate__lowest__twin.png", bytes: img(1) },
      ],
      STATS,
    );
    expect(plan.problems.map((p) => p.name)).toEqual([
      "a.zip: ../../etc/objective/crime-rate/highest/evil.png",
      "objective__nope__highest__1.png",
      "objective__crime-rate__lowest__fake.png",
      "objective__crime-rate__lowest__twin.png",
    ]);
    expect(plan.problems.map((p) => p.message).join(" | ")).toMatch(
      /traversal.*unknown statistic id "nope".*not a PNG, JPEG or WebP.*same content as objective\/crime-rate\/highest\/ok.png/,
    );
  });

  it("uses manifest.json when present: every image listed, every listed file present", async () => {
    const manifest = [
      { file: "a.png", test: "objective", statistic: "Crime Rate", level: "highest" },
      { file: "missing.png", test: "objective", statistic: "crime-rate", level: "lowest" },
    ];
    const zip = zipSync({ "set/manifest.json": strToU8(JSON.stringify(manifest)), "set/a.png": img(5), "set/b.png": img(6) });
    expect(listZipNames(zip)).toEqual(["set/manifest.json", "set/a.png", "set/b.png"]);
    const plan = await planImport([{ name: "m.zip", bytes: zip }], STATS);
    expect(plan.mappedBy).toBe("manifest");
    expect(plan.items.map((i) => [i.name, i.target.statisticId])).toEqual([["set/a.png", "crime-rate"]]);
    expect(plan.problems).toEqual([
      { name: "set/b.png", message: "not listed in set/manifest.json" },
      { name: "missing.png", message: "listed in the manifest but not uploaded" },
    ]);
  });

  it("refuses a zip whose entries declare more than the per-image limit before inflating them", async () => {
    const big = new Uint8Array(26 * 1024 * 1024);
    const plan = await planImport([{ name: "bomb.zip", bytes: zipSync({ "objective/crime-rate/highest/big.png": big }, { level: 9 }) }], STATS);
    expect(plan.items).toEqual([]);
    expect(plan.problems[0]).toEqual({ name: "bomb.zip: objective/crime-rate/highest/big.png", message: "larger than 25 MiB uncompressed" });
  });
});

describe("bounded work on hostile images and archives", () => {
  it("refuses a PNG that declares 60000 × 60000 from its header, in milliseconds and without allocating", async () => {
    const bomb = lyingPng(60000, 60000);
    const rss = process.memoryUsage().rss;
    await expect(validateImageAsync(bomb)).rejects.toThrow(/too large \(60000×60000/);
    await expect(validateImage(bomb)).rejects.toThrow(/too large/);
    expect(process.memoryUsage().rss - rss).toBeLessThan(10 * 1024 * 1024);
  });

  it("reads JPEG dimensions from the frame header and refuses a header that lies about the decoded size", async () => {
    const jpg = jpeg.encode({ data: Buffer.alloc(40 * 30 * 4, 128), width: 40, height: 30 }, 80).data;
    expect(checkImageHeader(new Uint8Array(jpg))).toMatchObject({ ext: "jpg", width: 40, height: 30 });
    await expect(validateImageAsync(new Uint8Array(jpg))).resolves.toMatchObject({ width: 40, height: 30 });
    // Patch the SOF height to 8000: within limits by the header, but the decode disagrees.
    const forged = new Uint8Array(jpg);
    for (let i = 2; i < forged.length - 9; i++)
      if (forged[i] === 0xff && forged[i + 1] === 0xc0) {
        forged[i + 5] = 8000 >> 8;
        forged[i + 6] = 8000 & 0xff;
        break;
      }
    await expect(validateImageAsync(forged)).rejects.toThrow();
  });

  it("refuses a PNG decompression bomb (4096 × 4096 from a few KiB; the issue's 8000 × 8000 alike) before decoding it", async () => {
    const side = 4096;
    const p = new PNG({ width: side, height: side });
    p.data.fill(255);
    const bomb = new Uint8Array(PNG.sync.write(p, { deflateLevel: 9 }));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    // Refused from the header (the message is the header check's): nothing was decoded.
    await expect(validateImageAsync(bomb)).rejects.toThrow(/refused before decoding: .*decompression bomb/);
    // The same picture small is fine: the ratio rule applies only to large images.
    expect(checkImageHeader(png(64, 64))).toMatchObject({ width: 64, height: 64 });
  });

  it("bounds an import's total pixels from the headers before decoding any image", async () => {
    const { IMPORT_LIMITS } = await import("../lib/images/import");
    // 91 files whose headers claim 8192 × 8192 (67 MP each) at a plausible file size pass the per-image header
    // checks, but 6.1 G pixels in all are over the budget: refused without decoding one.
    const header = lyingPng(8192, 8192);
    const plausible = new Uint8Array(1_100_000);
    plausible.set(header);
    const files = Array.from({ length: 91 }, (_, i) => ({ name: `objective/crime-rate/highest/${i}.png`, bytes: plausible }));
    const plan = await planImport(files, STATS);
    expect(plan.items).toHaveLength(0);
    expect(plan.problems).toContainEqual({
      name: "(batch)",
      message: expect.stringMatching(new RegExp(`at most ${IMPORT_LIMITS.maxTotalPixels / 1e9} G pixels per import`)),
    });
  });

  it("decodes off the event loop: timers keep firing while a large PNG is checked", async () => {
    const side = 2048;
    const png = new PNG({ width: side, height: side });
    for (let i = 0; i < png.data.length; i++) png.data[i] = (i * 2654435761) >>> 24;
    const bytes = new Uint8Array(PNG.sync.write(png));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 2);
    const t0 = performance.now();
    await expect(validateImageAsync(bytes)).resolves.toMatchObject({ width: side, height: side });
    const elapsed = performance.now() - t0;
    clearInterval(timer);
    // The main thread stayed free: it ran its timer through the decode.
    if (elapsed > 40) expect(ticks).toBeGreaterThan(3);
  });

  it("refuses a 1 MB zip of zeros that would inflate to 1 GB, whatever its header says, without inflating it", () => {
    // 1 GiB of zeros deflates to ~1 MB; the archive is written by hand so its declared size can be forged.
    const GiB = 1024 * 1024 * 1024;
    const zeros = Buffer.alloc(GiB);
    const data = deflateRawSync(zeros, { level: 9 });
    const crc = crc32(zeros);
    const honest = oneEntryZip("objective/crime-rate/highest/zeros.png", data, crc, GiB);
    expect(honest.length).toBeLessThan(2 * 1024 * 1024);
    const rss = process.memoryUsage().rss;
    const plan = expandArchives([{ name: "bomb.zip", bytes: honest }]);
    expect(plan.files).toEqual([]);
    expect(plan.problems[0].message).toMatch(/larger than 25 MiB/);
    // Forged: the headers claim 100 bytes; inflation is stopped as soon as it passes them.
    const forged = oneEntryZip("objective/crime-rate/highest/zeros.png", data, crc, 100);
    const forgedPlan = expandArchives([{ name: "forged.zip", bytes: forged }]);
    expect(forgedPlan.files).toEqual([]);
    expect(forgedPlan.problems[0].message).toMatch(/declares|larger than/);
    expect(process.memoryUsage().rss - rss).toBeLessThan(200 * 1024 * 1024);
  });
});
