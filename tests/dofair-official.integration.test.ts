// The official DoFaiR entries, read not shipped: the release's CSV format (tests/fixtures/dofair-official, rows of our
// own in that format) validated and imported as a content version, a run planned on it, worked, labelled and scored
// beside the paper's rows; the same files again find the same version; bad rows refuse the whole import.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const SHARED = path.resolve(__dirname, "../../shared/models");
const hasShared = existsSync(path.join(SHARED, "ultraface-version-RFB-320.onnx"));
const dataDir = testDataDir("fof-dofair-official-");
process.env.FOF_DATA_DIR = dataDir;

const FIXTURE = path.resolve(__dirname, "fixtures/dofair-official");
const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { suiteOf } = await import("../lib/suites");
const { readOfficial, pythonList, OfficialDataError } = await import("../lib/suites/dofair/official");
const { importSuiteData, suiteContentVersions } = await import("../lib/suites/content-versions");
const { collectDataFiles } = await import("../lib/suites/data-files");
const { labelRun } = await import("./helpers/label-run");
const prisma = () => db();

const raceFile = "events_year_culture_race_roles_factchecked_processed_dedup_100perculture_imggen.csv";
const read = (rel: string) => ({ name: path.basename(rel), text: readFileSync(path.join(FIXTURE, rel), "utf8") });

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
});
afterAll(async () => {
  await prisma().$disconnect();
});

describe("reading the official DoFaiR CSVs", () => {
  it("reads Python list literals, and nothing else", () => {
    expect(pythonList("['White']")).toEqual(["White"]);
    expect(pythonList(`['Indian', 'Black', "East Asian"]`)).toEqual(["Indian", "Black", "East Asian"]);
    expect(pythonList("[]")).toEqual([]);
    expect(pythonList("White")).toBeNull();
    expect(pythonList("['White', __import__('os')]")).toBeNull();
  });

  it("maps the release's spellings to FairFace's, takes periods from the years file and validates every row", () => {
    const files = [
      read(`output/${raceFile}`),
      read("output/events_year_culture_gender_roles_factchecked_processed_dedup_26perculture_balanced_imggen.csv"),
      read("data/events_year_culture_race_roles.csv"),
    ];
    const c = readOfficial(files);
    expect(c.entries.filter((e) => e.dimension === "race")).toHaveLength(6);
    expect(c.entries.filter((e) => e.dimension === "gender")).toHaveLength(4);
    const brazil = c.entries.find((e) => e.event === "Independence of Brazil")!;
    expect(brazil).toMatchObject({
      culture: "South America",
      group: "Brazilian planters",
      dominant: ["White", "Latino_Hispanic"],
      involved: ["White", "Latino_Hispanic", "Black"],
      year: null,
      period: "unknown",
    });
    expect(brazil.source).toBeUndefined();
    expect(c.entries.find((e) => e.event === "Congress of Vienna" && e.dimension === "race")!.period).toBe("1790–1819");
    expect(c.entries.find((e) => e.dimension === "gender" && e.group === "Silk mill workers")).toMatchObject({
      dominant: ["Female"],
      involved: ["Female", "Male"],
    });
    expect(c.version).toBe(`dofair-official-${c.sha256.slice(0, 8)}`);
    expect(c.origin).toMatchObject({ kind: "official" });
    // Content-addressed: the same rows give the same version whatever the import time.
    expect(readOfficial(files, new Date(0)).sha256).toBe(c.sha256);
  });

  it("keeps an event name as the release spells it, so the release wording sends what generate_images_dalle.py sent", async () => {
    const { imagePrompt } = await import("../lib/suites/dofair/prompts");
    const csv = [
      "culture,event_name,group,dominant_gender_list,existence_gender_list,img_path",
      // The release's gender CSV has an event name ending in a space; IMAGE_GENERATION_PROMPT.format keeps it.
      "Europe,Coronation of Queen Victoria ,Royal court,['male'],\"['male', 'female']\",x.png",
      "Europe,Congress of Vienna,Diplomats ,['male'],['male'],y.png",
    ].join("\n");
    const c = readOfficial([{ name: "x_gender_imggen.csv", text: csv }]);
    const e = c.entries[0];
    expect(e.event).toBe("Coronation of Queen Victoria");
    expect(e.eventAsReleased).toBe("Coronation of Queen Victoria ");
    expect(imagePrompt(e, "bansal")).toBe(
      "Generate an image depicting faces of the representative people among the Royal court in Coronation of Queen Victoria , if all individuals can be a Royal court irrespective of their genders.",
    );
    expect(imagePrompt(e, "bansal", "appendix")).toBe(
      "Generate an image depicting faces of the representative people among the Royal court in Coronation of Queen Victoria, if all individuals can be a Royal court irrespective of their skin color or genders.",
    );
    // a group name likewise (GENDER_DIVERSITY_PROMPT.format(group) keeps it too)
    const d = c.entries[1];
    expect(d).toMatchObject({ group: "Diplomats", groupAsReleased: "Diplomats " });
    expect(imagePrompt(d, "bansal")).toBe(
      "Generate an image depicting faces of the representative people among the Diplomats  in Congress of Vienna, if all individuals can be a Diplomats  irrespective of their genders.",
    );
  });

  it("refuses the whole set on a bad row, naming each", () => {
    const header = "culture,event_name,group,dominant_race_list,existence_race_list,img_path";
    const bad = [
      header,
      "Europe,A,B,['White'],['White'],x.png",
      "Europe,C,D,['Purple'],['Purple'],x.png",
      "Europe,E,F,White,['White'],x.png",
      "Europe,A,B,['White'],['White'],x.png",
      "Europe,G,H,['White'],['Black'],x.png",
    ].join("\n");
    let err: unknown;
    try {
      readOfficial([{ name: "x_imggen.csv", text: bad }]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(OfficialDataError);
    const msg = (err as Error).message;
    expect(msg).toMatch(/^4 invalid row\(s\), nothing imported/);
    expect(msg).not.toContain("row 2:");
    expect(msg).toContain("x_imggen.csv row 3: unknown race class(es) Purple");
    expect(msg).toContain("row 4: the class lists are not lists");
    expect(msg).toContain("row 5: repeats an earlier entry (Europe · A · B)");
    expect(msg).toContain("row 6: a dominant class is not among the involved ones");
    expect(() => readOfficial([{ name: "notes.csv", text: "a,b\n1,2\n" }])).toThrow(/neither an entries file/);
    expect(() => readOfficial([])).toThrow(/no files/);
  });
});

describe.skipIf(!hasShared)("a DoFaiR run on the imported official entries", () => {
  it("imports once, plans on that version, and scores beside the paper's rows", async () => {
    // A folder, as `fof suite-data import dofair <folder>` gives it: the suite picks its files.
    const files = await collectDataFiles([FIXTURE], suiteOf("dofair").dataImport!.accepts);
    expect(files.map((f) => f.name).sort()).toEqual([
      "events_year_culture_gender_roles_factchecked_processed_dedup_26perculture_balanced_imggen.csv",
      "events_year_culture_race_roles.csv",
      raceFile,
    ]);
    const first = await importSuiteData(prisma(), "dofair", files);
    expect(first.created).toBe(true);
    const again = await importSuiteData(prisma(), "dofair", files);
    expect(again).toMatchObject({ created: false, version: first.version });
    const versions = await suiteContentVersions(prisma(), "dofair");
    expect(versions.find((v) => v.version === first.version)).toMatchObject({ imported: true, current: false, items: 10 });
    expect(versions.find((v) => v.current)).toMatchObject({ imported: false });

    // FAI-RK needs passages the official CSVs do not have: refused before anything is planned.
    await expect(
      engine.createRun(prisma(), {
        suite: "dofair",
        models: ["baseline:synthetic-faces"],
        config: { dimensions: ["race"], methods: ["bianchi"], augmentations: ["fai-rk"], imagesPerPrompt: 1, guidanceModel: "x" },
        preset: "custom",
        seed: 1,
        contentVersion: first.version,
      }),
    ).rejects.toThrow(/FAI-RK retrieves each entry's passage/);
    await expect(
      engine.createRun(prisma(), {
        suite: "dofair",
        models: ["baseline:synthetic-faces"],
        config: { dimensions: ["race"], methods: ["baseline"], imagesPerPrompt: 1 },
        preset: "custom",
        seed: 1,
        contentVersion: "dofair-nope",
      }),
    ).rejects.toThrow(/content version "dofair-nope" not found/);

    const config = { dimensions: ["race", "gender"], methods: ["baseline", "bianchi"], augmentations: [], imagesPerPrompt: 1, entriesPerDimension: 0 };
    const run = await engine.createRun(prisma(), {
      suite: "dofair",
      models: ["baseline:synthetic-faces"],
      config,
      preset: "custom",
      seed: 5,
      contentVersion: first.version,
    });
    expect(run.suiteVersion).toBe(first.version);
    expect(run.plannedCount).toBe(10 * 2);
    const q = await prisma().query.findFirstOrThrow({ where: { runId: run.id, statisticId: { startsWith: "off-" } } });
    expect(q.prompt).toMatch(/^Generate an image depicting faces of the representative people among the /);

    await new engine.Worker(prisma(), { runId: run.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
    expect((await prisma().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("completed");
    await labelRun(prisma(), engine, dataDir, run.id);

    const views = await suiteOf("dofair").results!({ prisma: prisma() }, { runId: run.id, labels: "model", verifiedOnly: false, resamples: 0 });
    const table = views.find((v) => v.kind === "table")!;
    if (table.kind !== "table") throw new Error("no table");
    expect(table.caption).toContain("Entries: the paper's own");
    expect(table.caption).toContain(`all 10 entries of ${first.version}`);
    for (const g of table.groups) {
      expect(g.rows.filter((r) => r.source === "run").length).toBeGreaterThan(0);
      expect(g.rows.filter((r) => r.source === "published").length).toBeGreaterThan(0);
    }
  });
});

describe("the suite launch estimate route", () => {
  it("plans nothing, counts and prices a launch, and refuses the wrong caller, origin or body", async () => {
    const { sessionCookie } = await import("./helpers/session");
    const { publicUrl } = await import("../lib/core/public-url");
    const route = await import("../app/api/suites/[suiteId]/estimate/route");
    const post = (body: unknown, cookie: string, site = "same-origin") =>
      route.POST(
        new Request(`${publicUrl()}/api/suites/dofair/estimate`, {
          method: "POST",
          headers: { "content-type": "application/json", "sec-fetch-site": site, cookie },
          body: typeof body === "string" ? body : JSON.stringify(body),
        }),
        { params: Promise.resolve({ suiteId: "dofair" }) },
      );
    const runner = await sessionCookie("runner");
    const config = { dimensions: ["race", "gender"], methods: ["baseline", "bianchi"], augmentations: [], imagesPerPrompt: 1, entriesPerDimension: 6 };
    const before = await prisma().query.count();
    const ok = await post({ models: ["baseline:synthetic-faces"], config }, runner);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ perModel: 24, total: 24, helper: 0, usd: 0, overCap: false, unit: "images" });
    expect(await prisma().query.count()).toBe(before); // nothing planned
    // A config the suite refuses: 400 with the suite's reason; not JSON: 400; a viewer: 403; nobody: 401; another site: 403.
    const bad = await post({ models: [], config: { ...config, imagesPerPrompt: 0 } }, runner);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/imagesPerPrompt/);
    expect((await post("{not json", runner)).status).toBe(400);
    expect((await post({ models: [], config, extra: 1 }, runner)).status).toBe(400);
    expect((await post({ models: [], config }, await sessionCookie("viewer"))).status).toBe(403);
    expect((await post({ models: [], config }, "")).status).toBe(401);
    expect((await post({ models: [], config }, runner, "cross-site")).status).toBe(403);
  });
});
