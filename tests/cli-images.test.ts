// `fof import`, `fof scores` and `fof export` on a T2I run (faces stored as the Label page stores them).
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const SHARED = path.resolve(__dirname, "../../shared/models/test-images");
const exec = promisify(execFile);
const dataDir = testDataDir("fof-cli-img-");
const env = { ...process.env, FOF_DATA_DIR: dataDir };
const fof = (args: string[]) => exec("npm", ["run", "--silent", "fof", "--", ...args], { env, maxBuffer: 10 * 1024 * 1024 });

describe.skipIf(!existsSync(SHARED))("fof import / scores / export", () => {
  it("imports a folder all-or-nothing, then scores and exports one line per face", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fof-portraits-"));
    mkdirSync(path.join(dir, "objective/crime-rate/highest"), { recursive: true });
    copyFileSync(path.join(SHARED, "astronaut-eileen-collins.png"), path.join(dir, "objective/crime-rate/highest/a.png"));
    copyFileSync(path.join(SHARED, "no-face-coffee.png"), path.join(dir, "objective/crime-rate/highest/b.png"));
    copyFileSync(path.join(SHARED, "grace-hopper-512.jpg"), path.join(dir, "unmapped.jpg"));

    process.env.FOF_DATA_DIR = dataDir;
    const { db, migrateAndSeed } = await import("../lib/db");
    const { upsertModel } = await import("./helpers/services");
    await migrateAndSeed({ quiet: true });
    await upsertModel(db(), { slug: "mj-cli", label: "MJ", modality: "t2i", provider: "import" });

    const bad = await fof(["import", "--model", "mj-cli", dir]).catch((e) => e);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/unmapped\.jpg: .*does not follow/);
    expect(await db().image.count()).toBe(0);

    rmSync(path.join(dir, "unmapped.jpg"));
    // Names keep the chosen folder's name: importing the "objective" folder itself still maps by the scheme.
    const { stdout } = await fof(["import", "--model", "mj-cli", path.join(dir, "objective")]);
    const { runId, imported } = JSON.parse(stdout);
    expect(imported).toBe(2);

    const images = await db().image.findMany({ where: { runId }, orderBy: { originalName: "asc" } });
    await db().face.create({
      data: {
        imageId: images[0].id,
        x1: 1,
        y1: 1,
        x2: 9,
        y2: 9,
        source: "detector",
        classifierModel: "fairface",
        classifierVersion: "a".repeat(64),
        detectorModel: "ultraface-rfb-320",
        detectorVersion: "b".repeat(64),
        labelRuntime: "node-cpu",
        raceProbsJson: JSON.stringify([0.1, 0.1, 0.1, 0.1, 0.1, 0.4, 0.1]),
        genderProbsJson: "[0.2,0.8]",
        ageProbsJson: JSON.stringify(Array(9).fill(1 / 9)),
      },
    });
    await db().image.update({ where: { id: images[0].id }, data: { labelStatus: "labelled" } });
    await db().image.update({ where: { id: images[1].id }, data: { labelStatus: "no_face" } });
    await db().$disconnect();

    const scores = JSON.parse((await fof(["scores", runId])).stdout).results;
    expect(scores.find((s: { attribute: string }) => s.attribute === "gender")).toMatchObject({
      modality: "t2i",
      test: "objective",
      n: 2,
      refused: 1,
      sFact: 0,
    });
    const lines = (await fof(["export", runId])).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    // Indian (0.4) is ignored by the paper mapping: the face is the most probable of the other four classes.
    expect(lines).toContainEqual({
      model: "mj-cli",
      modality: "t2i",
      test: "objective",
      context: null,
      statistic: "Crime Rate",
      level: "highest",
      attribute: "gender",
      answer: "female",
      truth: "male",
      labels: "model",
      imageId: images[0].id,
      faceId: expect.any(Number),
      modelAnswer: "female",
      humanAnswer: null,
      classifier: { name: "fairface", sha256: "a".repeat(64) },
      // saved without saying how the face was cut: a square crop, and the line says so
      chip: { method: "square", landmarker: null },
      detector: { name: "ultraface-rfb-320", sha256: "b".repeat(64) },
      runtime: "node-cpu",
    });
    expect(lines.filter((l) => l.answer === null)).toHaveLength(2);

    // A reviewer corrects the gender: the model's labels stay as they were, the reviewed ones follow.
    const face = await db().face.findFirstOrThrow({ where: { imageId: images[0].id } });
    await db().annotation.create({
      data: {
        faceId: face.id,
        annotator: "ann",
        values: {
          create: [
            { attribute: "gender", value: "male" },
            { attribute: "race", value: "White" },
          ],
        },
      },
    });
    await db().$disconnect();
    const reviewed = (await fof(["export", runId, "--labels", "reviewed"])).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(reviewed).toContainEqual(
      expect.objectContaining({ attribute: "gender", answer: "male", labels: "reviewed", modelAnswer: "female", humanAnswer: "male" }),
    );
    const modelScores = JSON.parse((await fof(["scores", runId])).stdout).results;
    expect(modelScores.find((s: { attribute: string }) => s.attribute === "gender").sFact).toBe(0);
    const reviewedScores = JSON.parse((await fof(["scores", runId, "--labels", "reviewed"])).stdout).results;
    expect(reviewedScores.find((s: { attribute: string }) => s.attribute === "gender").sFact).toBe(1);
    expect((await fof(["scores", runId, "--labels", "nonsense"]).catch((e) => e)).stderr ?? "").toMatch(/unknown labels/);
  });
});
