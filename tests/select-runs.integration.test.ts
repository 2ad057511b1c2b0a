// The Results pages' run selection: the picker lists the newest runs, and a run named in the address is read
// whatever its age — a link to an older comparison keeps working however many runs came after it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-select-runs-");

const { db, migrateAndSeed } = await import("../lib/db");
const { createRun, presetConfig, Worker } = await import("./helpers/services");
const { selectRuns } = await import("../lib/features/results/select-runs");

let oldId = "";

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const run = await createRun(db(), { models: ["baseline:oracle"], config: presetConfig("smoke", { tests: ["objective"] }), seed: 5 });
  await new Worker(db(), { runId: run.id, pollMs: 5, flushMs: 10 }).run({ untilDone: true });
  oldId = run.id;
  const base = await db().run.findUniqueOrThrow({ where: { id: run.id } });
  // A hundred and twenty later runs (bare rows: only their order matters here).
  await db().run.createMany({
    data: Array.from({ length: 120 }, (_, i) => ({
      name: `later ${i}`,
      modality: base.modality,
      seed: i,
      configJson: base.configJson,
      benchmarkVersionId: base.benchmarkVersionId,
      suiteId: base.suiteId,
      status: "completed",
      createdAt: new Date(base.createdAt.getTime() + (i + 1) * 1000),
    })),
  });
});
afterAll(async () => {
  await db().$disconnect();
});

describe("run selection", () => {
  it("lists the newest runs in the picker, and reads a run named in the address whatever its age", async () => {
    const suite = (await db().run.findUniqueOrThrow({ where: { id: oldId }, select: { suiteId: true } })).suiteId;
    const plain = await selectRuns({}, suite);
    expect(plain.all).toHaveLength(100);
    expect(plain.all.some((r) => r.id === oldId)).toBe(false);
    const linked = await selectRuns({ runs: oldId }, suite);
    expect(linked.error).toBeNull();
    expect(linked.selected.map((r) => r.id)).toEqual([oldId]);
    expect(linked.all.some((r) => r.id === oldId)).toBe(true);
    expect((await selectRuns({ runs: "nosuchrun" }, suite)).error).toMatch(/unknown or unscorable run id\(s\): nosuchrun/);
  });
});
