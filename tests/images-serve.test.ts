import { writeFileSync } from "node:fs";
import path from "node:path";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-serve-");
const { db, migrateAndSeed } = await import("../lib/db");
const { env } = await import("../lib/env");
const { findServableImage, storeImage, validateImage } = await import("../lib/images");

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
});
afterAll(async () => {
  await db().$disconnect();
});

describe("image serving", () => {
  it("serves only images recorded in the database and stored inside the data directory", async () => {
    const p = new PNG({ width: 32, height: 32 });
    p.data.fill(90);
    const buf = PNG.sync.write(p);
    const valid = await validateImage(buf);
    const stored = storeImage(env().dataDir, buf, valid);
    const model = await db().modelConfig.create({ data: { slug: "mj", label: "Midjourney", modality: "t2i", provider: "import", modelId: "midjourney" } });
    const image = await db().image.create({
      data: {
        modelConfigId: model.id,
        test: "objective",
        statisticId: "crime-rate",
        level: "highest",
        sha256: stored.sha256,
        path: stored.path,
        mimeType: valid.mime,
        width: 32,
        height: 32,
        bytes: buf.length,
        source: "imported",
      },
    });
    const found = await findServableImage(db(), env().dataDir, image.id);
    expect(found).toMatchObject({ mimeType: "image/png", sha256: stored.sha256 });
    expect(found!.file.startsWith(env().dataDir)).toBe(true);

    expect(await findServableImage(db(), env().dataDir, "doesnotexist123")).toBeNull();
    expect(await findServableImage(db(), env().dataDir, "../../etc/passwd")).toBeNull();
    // A row whose path points outside the store is never served.
    writeFileSync(path.join(env().dataDir, "secret.txt"), "x");
    const evil = await db().image.create({
      data: {
        modelConfigId: model.id,
        test: "objective",
        statisticId: "crime-rate",
        level: "highest",
        sha256: stored.sha256,
        path: "../secret.txt",
        mimeType: "image/png",
        width: 1,
        height: 1,
        bytes: 1,
        source: "imported",
      },
    });
    expect(await findServableImage(db(), env().dataDir, evil.id)).toBeNull();
  });
});
