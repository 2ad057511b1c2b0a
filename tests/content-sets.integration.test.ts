// Content-set versions in the database (lib/features/content): an import stores an immutable draft, the same content
// again finds it, other content under a stored version (or a lower one) is refused, a new version comes with its diff,
// only an admin approves or retires (audited), and nothing is half-stored when a file is bad.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-content-sets-");
const { db, migrateAndSeed } = await import("../lib/db");
const { importContentSet, listContentSets, setContentSetStatus } = await import("../lib/features/content/content-sets");

const DIR = path.join(__dirname, "fixtures/content/de-synthetic");
const FILES = Object.fromEntries(["content.json", "statistics.csv", "scenarios.csv"].map((f) => [f, readFileSync(path.join(DIR, f), "utf8")]));
const bumped = (version: string, edit: (files: Record<string, string>) => void = () => {}) => {
  const files = { ...FILES, "content.json": FILES["content.json"].replace('"version": "1.0.0"', `"version": "${version}"`) };
  edit(files);
  return files;
};
const admin = { id: "admin-1", email: "admin@example.org", role: "admin" as const };
const runner = { id: "runner-1", email: "runner@example.org", role: "runner" as const };
const viewer = { id: "viewer-1", email: "viewer@example.org", role: "viewer" as const };

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
});

describe("content-set versions", () => {
  it("stores a draft once, finds it again, and refuses other content under its version", async () => {
    const first = await importContentSet(db(), runner, FILES);
    expect(first).toMatchObject({
      created: true,
      diff: null,
      version: { setId: "de-synthetic", version: "1.0.0", status: "draft", language: "de", createdBy: "runner@example.org" },
    });
    const again = await importContentSet(db(), runner, FILES);
    expect(again.created).toBe(false);
    expect(again.version!.sha256).toBe(first.version!.sha256);
    const changed = { ...FILES, "scenarios.csv": FILES["scenarios.csv"].replace("Situation 1, highest", "Situation eins, highest") };
    await expect(importContentSet(db(), runner, changed)).rejects.toThrow(/already stored with other content: a version never changes/);
    await expect(importContentSet(db(), viewer, bumped("1.0.1"))).rejects.toThrow(/runner or admin role/);
  });

  it("shows the diff of a new version before storing it, and refuses a version lower than the latest", async () => {
    const files = bumped("1.1.0", (f) => {
      f["scenarios.csv"] = f["scenarios.csv"].replace("Situation 2, lowest", "Situation zwei, lowest");
      f["statistics.csv"] = f["statistics.csv"].replace("https://example.org/b", "https://example.org/b2");
    });
    const dry = await importContentSet(db(), runner, files, { dryRun: true });
    expect(dry.version).toBeNull();
    expect(dry.against).toBe("1.0.0");
    expect(dry.diff!.statistics.changed).toEqual([{ id: "test-quote-b", fields: ["source"] }]);
    expect(dry.diff!.scenarios.map((s) => [s.statisticId, s.level, s.added.length, s.removed.length])).toEqual([["test-quote-a", "lowest", 1, 1]]);
    // the changed scenario's prompts: one per context (3); the source changes no prompt
    expect(dry.diff!.prompts).toMatchObject({ added: 0, removed: 0, changed: 3 });
    expect((await listContentSets(db(), "de-synthetic")).map((v) => v.version)).toEqual(["1.0.0"]);
    const stored = await importContentSet(db(), runner, files);
    expect(stored.created).toBe(true);
    await expect(importContentSet(db(), runner, bumped("1.0.5"))).rejects.toThrow(/must be higher than the latest, 1\.1\.0/);
  });

  it("lets only an admin approve and retire, audited, each from the state it may leave", async () => {
    await expect(setContentSetStatus(db(), runner, "de-synthetic@1.0.0", "approve")).rejects.toThrow(/only an admin/);
    const approved = await setContentSetStatus(db(), admin, "de-synthetic@1.0.0", "approve");
    expect(approved).toMatchObject({ status: "approved", approvedBy: "admin@example.org" });
    await expect(setContentSetStatus(db(), admin, "de-synthetic@1.0.0", "approve")).rejects.toThrow(/it is approved/);
    const retired = await setContentSetStatus(db(), null, "de-synthetic@1.0.0", "retire");
    expect(retired.status).toBe("retired");
    await expect(setContentSetStatus(db(), admin, "de-synthetic@1.0.0", "approve")).rejects.toThrow(/it is retired/);
    await expect(setContentSetStatus(db(), admin, "de-synthetic@9.9.9", "approve")).rejects.toThrow(/not found/);
    await expect(setContentSetStatus(db(), admin, "not a ref", "approve")).rejects.toThrow(/<set id>@<version>/);
    const audits = await db().auditLog.findMany({
      where: { targetType: "content-set" },
      orderBy: { id: "asc" },
      select: { action: true, targetId: true, userId: true },
    });
    expect(audits.map((a) => [a.action, a.targetId, a.userId])).toEqual([
      ["content-set.import", "de-synthetic@1.0.0", "runner-1"],
      ["content-set.import", "de-synthetic@1.1.0", "runner-1"],
      ["content-set.approve", "de-synthetic@1.0.0", "admin-1"],
      ["content-set.retire", "de-synthetic@1.0.0", null],
    ]);
  });

  it("stores nothing from a folder with an error", async () => {
    const before = await db().contentSetVersion.count();
    await expect(
      importContentSet(
        db(),
        runner,
        bumped("2.0.0", (f) => (f["statistics.csv"] = f["statistics.csv"].replace("female,male", "male,male"))),
      ),
    ).rejects.toThrow(/statistics\.csv:2 geschlecht_highest\/geschlecht_lowest/);
    expect(await db().contentSetVersion.count()).toBe(before);
  });
});
