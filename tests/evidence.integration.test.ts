// Evidence bundles (issue #58): a run's bundle verifies — signature, manifest, every file, completeness — and its
// scores recompute equal from its rows in a scratch database; each tampering is caught and named: one answer
// changed, one query dropped, the content swapped, a score edited (each as an outsider who cannot sign, and as an
// insider who re-signs with the real key), re-signed with another key, the archive truncated, a file added. No
// credential enters a bundle.
import { generateKeyPairSync, createPublicKey } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { pathToFileURL } from "node:url";
import path from "node:path";
import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const dir = testDataDir("evidence-");
process.env.FOF_DATA_DIR = dir;
process.env.OPENAI_API_KEY = "sk-canary-0123456789abcdef";
const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { writeBundle } = await import("../lib/features/evidence/bundle");
const { verifyBundle } = await import("../lib/features/evidence/verify");
const { publicKeyInfo, signingKey } = await import("../lib/features/ledger/keys");
const { tampered: tamperedCopy, lines, sha, text } = await import("./helpers/evidence");
type Entries = import("./helpers/evidence").Entries;

let bundle = "";
let runId = "";
let pem = "";
const tampered = (name: string, change: (e: Entries) => void, resign?: ReturnType<typeof signingKey>) => tamperedCopy(bundle, dir, name, change, resign);
const failed = async (file: string) => {
  const r = await verifyBundle(file, { publicKeyPem: pem });
  expect(r.ok).toBe(false);
  return r.checks.find((c) => !c.ok)!;
};

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const run = await engine.createRun(db(), { models: ["baseline:calibrated:0.8", "baseline:uniform"], config: engine.presetConfig("smoke"), seed: 5 });
  await new engine.Worker(db(), { runId: run.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
  runId = run.id;
  bundle = path.join(dir, "audit.zip");
  await writeBundle(db(), run.id, bundle);
  pem = publicKeyInfo().pem;
}, 120_000);

describe("evidence bundles", () => {
  it("verifies with the server's public key and recomputes every score equal", async () => {
    const r = await verifyBundle(bundle, { publicKeyPem: pem });
    expect(r.checks.filter((c) => !c.ok)).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.signer.trusted).toBe(true);
    expect(r.scores.length).toBeGreaterThan(100);
    expect(r.scores.some((s) => /^scores\.intervals\..*\[.*subjective.*\].*sE.*\.lo$/.test(s.path))).toBe(true);
    // without a key it checks integrity only, and says so
    const own = await verifyBundle(bundle);
    expect(own.signer.trusted).toBe(false);
    expect(own.checks.find((c) => c.check === "signature")!.detail).toMatch(/integrity only/);
  });

  it("carries every query with its prompt and raw output, and no credential", () => {
    const e = unzipSync(readFileSync(bundle));
    const all = Object.values(e).map(text).join("\n");
    expect(all).not.toContain("sk-canary");
    expect(all).not.toContain("OPENAI_API_KEY");
    const q = JSON.parse(lines(e["queries.jsonl"])[0]);
    expect(q.prompt).toBeTruthy();
    // a person who opens it reads the result: the signed scores rendered, escaped, no script
    const report = text(e["report.html"]);
    expect(report).toMatch(/<h1>.*<\/h1>/);
    expect(report).toContain("baseline:calibrated:0.8");
    expect(report).toMatch(/\[0\.\d{3}, 0\.\d{3}\]/);
    expect(report).not.toMatch(/<script/i);
    // every model's queries by how they ended, and whether the files that ran were the commit's
    expect(report).toMatch(/What each model's queries came to/);
    expect(report).toMatch(/<td>baseline:uniform<\/td><td>\d+<\/td>/);
    const software = JSON.parse(text(e["software.json"]));
    expect(software.changedFromCommit === null || Array.isArray(software.changedFromCommit)).toBe(true);
    expect(report).toMatch(/its files unchanged|differed from that commit|not known/);
    const o = JSON.parse(lines(e["outcomes.jsonl"])[0]);
    expect(o).toHaveProperty("rawText");
    expect(o).toHaveProperty("attemptsJson");
  });

  it("names one changed answer: a changed file for an outsider, scores that do not follow for an insider who re-signs", async () => {
    const flip = (e: Entries) => {
      const ls = lines(e["outcomes.jsonl"]).map((l) => JSON.parse(l));
      const o = ls.find((x) => x.status === "answered" && x.gender === "male")!;
      Object.assign(o, { gender: "female" });
      e["outcomes.jsonl"] = Buffer.from(ls.map((x) => JSON.stringify(x) + "\n").join(""));
    };
    expect(await failed(tampered("answer", flip))).toMatchObject({ check: "files", detail: expect.stringContaining("outcomes.jsonl: changed") });
    // The insider re-signs: the stored reading is not what the raw answer says (read again with the suite's reader).
    const insider = await failed(tampered("answer-resigned", flip, signingKey()));
    expect(insider.check).toBe("readings");
    expect(insider.detail).toMatch(/query \d+: gender stored "female", its raw answer reads "male"/);
  });

  it("re-reads every answer: stored readings moved without their raw text, and a refusal that does read, are named", async () => {
    // Many readings moved female → male in the database (the check found 241): the raw answers still say otherwise.
    const many = (e: Entries) => {
      const ls = lines(e["outcomes.jsonl"]).map((l) => JSON.parse(l));
      for (const o of ls.filter((x) => x.status === "answered" && x.gender === "female")) o.gender = "male";
      e["outcomes.jsonl"] = Buffer.from(ls.map((x) => JSON.stringify(x) + "\n").join(""));
    };
    const moved = await failed(tampered("readings-moved", many, signingKey()));
    expect(moved.check).toBe("readings");
    expect(moved.detail).toMatch(/gender stored "male", its raw answer reads "female"/);
    // An answer recorded as refused whose raw text reads fine (a refusal rate inflated).
    const refuse = (e: Entries) => {
      const ls = lines(e["outcomes.jsonl"]).map((l) => JSON.parse(l));
      const o = ls.find((x) => x.status === "answered")!;
      Object.assign(o, { status: "refused", parsedLetter: null, gender: null, race: null });
      const qs = lines(e["queries.jsonl"]).map((l) => JSON.parse(l));
      qs.find((q) => q.id === o.queryId)!.status = "refused";
      e["outcomes.jsonl"] = Buffer.from(ls.map((x) => JSON.stringify(x) + "\n").join(""));
      e["queries.jsonl"] = Buffer.from(qs.map((x) => JSON.stringify(x) + "\n").join(""));
    };
    const refused = await failed(tampered("refused-reads", refuse, signingKey()));
    expect(refused).toMatchObject({ check: "readings", detail: expect.stringMatching(/recorded as refused, but its raw answer reads "[A-D]"/) });
  });

  it("names an outcome whose status or modality was changed to slip past the readings, and answers cherry-picked away", async () => {
    const edit = (fn: (qs: Record<string, unknown>[], os: Record<string, unknown>[]) => void) => (e: Entries) => {
      const qs = lines(e["queries.jsonl"]).map((l) => JSON.parse(l));
      const os = lines(e["outcomes.jsonl"]).map((l) => JSON.parse(l));
      fn(qs, os);
      e["queries.jsonl"] = Buffer.from(qs.map((x) => JSON.stringify(x) + "\n").join(""));
      e["outcomes.jsonl"] = Buffer.from(os.map((x) => JSON.stringify(x) + "\n").join(""));
    };
    // the outcome marked failed (its query still answered) with its reading moved: scoring would count it
    const failedMoved = await failed(
      tampered(
        "outcome-status",
        edit((_qs, os) =>
          Object.assign(
            os.find((o) => o.status === "answered" && o.gender === "female")!,
            { status: "failed", gender: "male" },
          ),
        ),
        signingKey(),
      ),
    );
    expect(failedMoved).toMatchObject({ check: "completeness", detail: expect.stringMatching(/query \d+ is answered, its outcome says failed/) });
    // the query's modality spelled otherwise, so a filter on "llm" would skip it
    const odd = await failed(
      tampered(
        "modality",
        edit((qs) => void (qs[0]!.modality = "LLM")),
        signingKey(),
      ),
    );
    expect(odd).toMatchObject({ check: "completeness", detail: expect.stringMatching(/modality "LLM"/) });
    // the wrong answers dropped and their queries left unfinished in a completed run
    const picked = await failed(
      tampered(
        "cherry-picked",
        edit((qs, os) => {
          const wrong = new Set(os.filter((o) => o.status === "answered" && o.gender === "female").map((o) => o.queryId));
          os.splice(0, os.length, ...os.filter((o) => !wrong.has(o.queryId)));
          for (const q of qs) if (wrong.has(q.id)) q.status = "pending";
        }),
        signingKey(),
      ),
    );
    expect(picked).toMatchObject({ check: "completeness", detail: expect.stringMatching(/the run is completed, yet \d+ of its queries never ended/) });
  });

  it("names one dropped query", async () => {
    const drop = (e: Entries) => void (e["queries.jsonl"] = Buffer.from(lines(e["queries.jsonl"]).slice(1).join("\n") + "\n"));
    expect((await failed(tampered("drop", drop))).detail).toMatch(/queries\.jsonl: changed/);
    expect(await failed(tampered("drop-resigned", drop, signingKey()))).toMatchObject({
      check: "completeness",
      detail: expect.stringMatching(/planned \d+ queries; the bundle has/),
    });
  });

  it("names swapped content, an edited score, another signer, a truncated archive and an added file", async () => {
    const swap = (e: Entries) => {
      const c = JSON.parse(text(e["content.json"]));
      e["content.json"] = Buffer.from(JSON.stringify({ ...c, contentJson: c.contentJson.replace("Crime", "Krime") }));
    };
    expect((await failed(tampered("swap", swap))).detail).toMatch(/content\.json: changed/);
    const edit = (e: Entries) =>
      void (e["scores.json"] = Buffer.from(text(e["scores.json"]).replace(/"sE":0\.(\d)/, (_m, d) => `"sE":0.${(Number(d) + 1) % 10}`)));
    expect((await failed(tampered("score", edit))).detail).toMatch(/scores\.json: changed/);
    expect(await failed(tampered("score-resigned", edit, signingKey()))).toMatchObject({ check: "scores", detail: expect.stringMatching(/\.sE/) });
    // What the report states of each model's queries is counted again: fewer failures claimed is named.
    const fewerFailed = (e: Entries) => {
      const s = JSON.parse(text(e["scores.json"]));
      s.counts[0].answered += 1;
      s.counts[0].refused = Math.max(0, s.counts[0].refused - 1);
      e["scores.json"] = Buffer.from(JSON.stringify(s));
    };
    expect(await failed(tampered("counts-resigned", fewerFailed, signingKey()))).toMatchObject({
      check: "scores",
      detail: expect.stringMatching(/counts\[baseline:[^\]]+\]\.answered/),
    });
    const other = generateKeyPairSync("ed25519").privateKey;
    expect(await failed(tampered("other-key", edit, other))).toMatchObject({
      check: "signature",
      detail: expect.stringMatching(/does not verify with the given key/),
    });
    // the other key's own public key "verifies" it, but only as integrity, never as the server's
    const theirs = await verifyBundle(path.join(dir, "other-key.zip"), {
      publicKeyPem: createPublicKey(other).export({ type: "spki", format: "pem" }).toString(),
    });
    expect(theirs.checks.find((c) => c.check === "signature")!.ok).toBe(true);
    const cut = path.join(dir, "truncated.zip");
    const bytes = readFileSync(bundle);
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    expect(await failed(cut)).toMatchObject({ check: "archive" });
    expect((await failed(tampered("added", (e) => void (e["extra.txt"] = Buffer.from("hello"))))).detail).toMatch(/extra\.txt: not in the manifest/);
  });

  it("renders its report again from the signed files: an insider's edited page is named", async () => {
    const r = await verifyBundle(bundle, { publicKeyPem: pem });
    expect(r.checks.at(-1)).toMatchObject({ check: "report", ok: true });
    const report = text(unzipSync(readFileSync(bundle))["report.html"]);
    expect(report).toMatch(/<h2>Models at launch \(as declared; the provider's word\)<\/h2>/);
    expect(report).toContain("<h2>Configuration</h2>");
    expect(report).toMatch(/<h2>Per statistic<\/h2>.*<h3>baseline:calibrated:0\.8 · objective · gender<\/h3>/s);
    expect(report).toMatch(/<h2>How the contexts move the answers \(the paper's Table 3\)<\/h2>/);
    // the plane with its axis ticks, the upper bound and the models named (bundles that name their quantile)
    expect(report).toMatch(/<svg [^>]*aria-label="S_fact against S_E, the paper&#39;s plane: S_fact against S_E per group, with the upper bound">.*<circle /s);
    expect(report).toMatch(/<title>upper bound g_2<\/title>.*>baseline:calibrated:0\.8<\/text>/s);
    const sw = JSON.parse(text(unzipSync(readFileSync(bundle))["software.json"]));
    expect(sw.lockfileSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(sw.packages.fflate).toBe("0.8.2");
    expect(sw.packages["sql.js"]).toMatch(/^\d+\.\d+\.\d+$/);
    const edit = (e: Entries) => void (e["report.html"] = Buffer.from(text(e["report.html"]).replace("<h1>", "<h1>All fair: ")));
    expect(await failed(tampered("report-resigned", edit, signingKey()))).toMatchObject({
      check: "report",
      detail: expect.stringMatching(/not the page the signed files render/),
    });
  });

  it("is downloaded over HTTP with data.export only, and its key is public at a well-known URL", async () => {
    const { sessionCookie } = await import("./helpers/session");
    const route = await import("../app/api/v1/runs/[id]/bundle/route");
    const wellKnown = await import("../app/.well-known/fof-evidence-key/route");
    const get = async (role: "admin" | "viewer" | "runner") =>
      route.GET(new Request(`http://127.0.0.1/api/v1/runs/${runId}/bundle`, { headers: { cookie: await sessionCookie(role) } }), {
        params: Promise.resolve({ id: runId }),
      });
    const ok = await get("admin");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("application/zip");
    const file = path.join(dir, "downloaded.zip");
    writeFileSync(file, Buffer.from(await ok.arrayBuffer()));
    expect((await verifyBundle(file, { publicKeyPem: pem })).ok).toBe(true);
    expect((await get("viewer")).status).toBe(403);
    const missing = await route.GET(new Request("http://127.0.0.1/api/v1/runs/no-such-run/bundle", { headers: { cookie: await sessionCookie("admin") } }), {
      params: Promise.resolve({ id: "no-such-run" }),
    });
    expect(missing.status).toBe(404);
    const anonymous = await route.GET(new Request(`http://127.0.0.1/api/v1/runs/${runId}/bundle`), { params: Promise.resolve({ id: runId }) });
    expect(anonymous.status).toBe(401);
    // One bundle at a time per server, in the order asked, and one per account: the same account asking twice meanwhile
    // is told to try again; another account waits its turn and gets its bundle (no account can keep the others out).
    const cookie = await sessionCookie("admin");
    const same = () =>
      route.GET(new Request(`http://127.0.0.1/api/v1/runs/${runId}/bundle`, { headers: { cookie } }), { params: Promise.resolve({ id: runId }) });
    const [a, b, other] = await Promise.all([same(), same(), get("runner")]);
    expect([a.status, b.status].sort()).toEqual([200, 429]);
    const busy = a.status === 429 ? a : b;
    expect(busy.headers.get("retry-after")).toBeTruthy();
    expect(await busy.json()).toMatchObject({ code: "rate_limited", error: expect.stringMatching(/try again/) });
    expect(other.status).toBe(200);
    const key = await wellKnown.GET(new Request("http://127.0.0.1/.well-known/fof-evidence-key?format=pem"), { params: Promise.resolve({}) });
    expect(key.status).toBe(200);
    expect(await key.text()).toBe(pem);
  });

  it("`fof verify` in a fresh folder with no data directory exits 0 on the bundle and 1 on a tampered one", () => {
    const fresh = mkdtempSync(path.join(os.tmpdir(), "fof-fresh-"));
    const key = path.join(fresh, "workbench.pem");
    writeFileSync(key, pem);
    const cli = path.join(__dirname, "../bin/fof.ts");
    const env = { ...process.env, FOF_DATA_DIR: undefined, DATABASE_URL: undefined };
    const verify = (file: string) =>
      spawnSync(process.execPath, ["--import", pathToFileURL(require.resolve("tsx")).href, cli, "verify", file, "--key", key], {
        cwd: fresh,
        env,
        encoding: "utf8",
        maxBuffer: 256 * 1024 ** 2,
      });
    const ok = verify(bundle);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/verified — \d+ values recomputed equal/);
    expect(ok.stdout).toMatch(/^ {2}= scores\.groups\[/m);
    const edit = (e: Entries) =>
      void (e["scores.json"] = Buffer.from(text(e["scores.json"]).replace(/"sFact":0\.(\d)/, (_m, d) => `"sFact":0.${(Number(d) + 1) % 10}`)));
    const bad = verify(tampered("cli-resigned", edit, signingKey()));
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/✗ scores: .* do not follow from the data: .*sFact/);
    expect(readdirSync(fresh)).toEqual(["workbench.pem"]);
  }, 60_000);

  it("runs the browser verifier's checks (lib/evidence/check.ts) to the same verdicts, with the platform's crypto passed in", async () => {
    const { checkBundleFiles } = await import("../lib/evidence/check");
    const { verify } = await import("node:crypto");
    const nodeCrypto = {
      sha256: async (b: Uint8Array) => sha(b),
      verify: async (message: Uint8Array, sig: Uint8Array, keyPem: string) => verify(null, message, createPublicKey(keyPem), sig),
    };
    const check = async (file: string, publicKeyPem = pem) =>
      checkBundleFiles(unzipSync(readFileSync(file)), nodeCrypto, { publicKeyPem, embeddedKeyName: "signer-public-key.pem" });
    const good = await check(bundle);
    expect(good.checks.map((c) => [c.check, c.ok])).toEqual([
      ["signature", true],
      ["statement", true],
      ["files", true],
      ["completeness", true],
      ["design", true],
    ]);
    const drop = (e: Entries) => void (e["queries.jsonl"] = Buffer.from(lines(e["queries.jsonl"]).slice(1).join("\n") + "\n"));
    expect((await check(tampered("b-drop", drop))).checks.at(-1)).toMatchObject({ check: "files", ok: false });
    expect((await check(tampered("b-drop-resigned", drop, signingKey()))).checks.at(-1)).toMatchObject({ check: "completeness", ok: false });
    expect((await check(tampered("b-other", drop, generateKeyPairSync("ed25519").privateKey))).checks.at(-1)).toMatchObject({ check: "signature", ok: false });
  });

  it("the browser's re-scorer (what /verify loads) recomputes the same values as `fof verify`, and names the same tampering", async () => {
    const { browserRescore, comparable } = await import("./helpers/browser-rescorer");
    const cli = await verifyBundle(bundle, { publicKeyPem: pem });
    const web = await browserRescore(bundle);
    expect(web.length).toBe(cli.scores.length);
    expect(web.every((c) => c.equal)).toBe(true);
    expect(comparable(web)).toEqual(comparable(cli.scores));
    // an insider's edited score: the same values named by both
    const insider = path.join(dir, "score-resigned.zip");
    const wrongCli = (await verifyBundle(insider, { publicKeyPem: pem })).scores.filter((c) => !c.equal);
    const wrongWeb = (await browserRescore(insider)).filter((c) => !c.equal);
    expect(wrongWeb.length).toBeGreaterThan(0);
    expect(comparable(wrongWeb)).toEqual(comparable(wrongCli));
  }, 120_000);
});

describe("evidence bundles of adaptive runs", () => {
  it("takes every look again and checks the run stopped as its rule says; a look's record or the stop changed is named", async () => {
    const { registerLooks } = await import("../lib/features/results/adaptive-looks");
    registerLooks();
    const { browserRescore, comparable } = await import("./helpers/browser-rescorer");
    const config = engine.presetConfig("quick", { tests: ["subjective"], contexts: ["baseline"] });
    // a target met early (stops at a look before the cap), and one never met (runs to the cap)
    for (const [until, seed, kind] of [
      ["halfwidth<=0.45", 2, "met"],
      ["sFact<=0.001", 3, "cap"],
    ] as const) {
      const run = await engine.createRun(db(), { models: ["baseline:calibrated:0.8"], config, seed, until });
      await new engine.Worker(db(), { runId: run.id, pollMs: 5, flushMs: 10, runCheckMs: 10 }).run({ untilDone: true });
      const file = path.join(dir, `adaptive-${kind}.zip`);
      await writeBundle(db(), run.id, file);
      const r = await verifyBundle(file, { publicKeyPem: pem });
      expect(r.checks.filter((c) => !c.ok)).toEqual([]);
      const stopping = r.checks.find((c) => c.check === "stopping")!;
      expect(stopping.detail).toMatch(/^\d looks taken again at their scheduled levels, \d+ values equal: the run stopped as its rule says$/);
      expect(r.scores.some((s) => /^looks\[look 1\]\.rows\[.*\]\.lo$/.test(s.path))).toBe(true);
      expect(comparable(await browserRescore(file))).toEqual(comparable(r.scores));
      expect(text(unzipSync(readFileSync(file))["report.html"])).toMatch(
        new RegExp(`<h2>Stopping rule</h2>.*stopped at look \\d \\(${kind === "met" ? "target met" : "its cap"}\\)`),
      );
    }
    const state = (e: Entries) => {
      const run = JSON.parse(text(e["run.json"]));
      return { run, adaptive: JSON.parse(run.adaptiveJson) };
    };
    const put = (e: Entries, run: Record<string, unknown>, adaptive: unknown) =>
      void (e["run.json"] = Buffer.from(JSON.stringify({ ...run, adaptiveJson: JSON.stringify(adaptive) })));
    const capped = path.join(dir, "adaptive-cap.zip");
    // an insider narrows a recorded interval, or says the run met its target at the cap
    const narrowed = tamperedCopy(
      capped,
      dir,
      "look-narrowed",
      (e) => {
        const { run, adaptive } = state(e);
        adaptive.looks[1].rows[0].hi = adaptive.looks[1].rows[0].lo;
        put(e, run, adaptive);
      },
      signingKey(),
    );
    expect(await failed(narrowed)).toMatchObject({
      check: "stopping",
      detail: expect.stringMatching(/values of the looks do not follow from the data: looks\[look 2\]\.rows\[.*\]\.hi/),
    });
    const claimed = tamperedCopy(
      capped,
      dir,
      "look-claimed",
      (e) => {
        const { run, adaptive } = state(e);
        adaptive.outcome.kind = "met";
        put(e, run, adaptive);
      },
      signingKey(),
    );
    expect(await failed(claimed)).toMatchObject({
      check: "stopping",
      detail: expect.stringMatching(/stopped on a met target at look 4, which did not meet it/),
    });
  }, 300_000);
});
