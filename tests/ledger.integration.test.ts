// The design committed before the first answer, and every launch on an append-only log (#65 items 4 and 5): a launch
// signs its design statement and appends it to the transparency log before a single query is written; the
// run.launched webhook carries it; the API serves it with its inclusion proof, checkpoints and consistency proofs
// (hashes public, entries behind results.read); a checkpoint kept earlier proves a later log only appended and lists
// every run launched in between per model, while a rewritten log fails; and a bundle is checked against its design —
// an insider who changes the run and re-signs the manifest is named, and one who also forges the design with the
// real key is caught by an outsider who held the design.
import { createPublicKey, verify } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-ledger-");
process.env.FOF_ALLOWED_ENDPOINTS = "127.0.0.1";
const dir = mkdtempSync(path.join(os.tmpdir(), "fof-ledger-files-"));

const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { createUser } = await import("../lib/auth/users");
const { createToken } = await import("../lib/auth/tokens");
const { createWebhook } = await import("../lib/features/webhooks/hooks");
const { writeBundle } = await import("../lib/features/evidence/bundle");
const { verifyBundle } = await import("../lib/features/evidence/verify");
const { publicKeyInfo, signingKey } = await import("../lib/features/ledger/keys");
const log = await import("../lib/features/ledger/log");
const { designStatementSchema, checkpointSchema, designStatementFor, designDigest } = await import("../lib/evidence/design");
const { fromHex, leafHash, rootHash, toHex, verifyConsistency, verifyInclusion } = await import("../lib/evidence/merkle");
const { signEnvelope, IN_TOTO_PAYLOAD_TYPE } = await import("../lib/evidence/dsse");
const { tampered } = await import("./helpers/evidence");
const designRoute = await import("../app/api/v1/runs/[id]/design/route");
const checkpointRoute = await import("../app/api/v1/log/checkpoint/route");
const proofRoute = await import("../app/api/v1/log/proof/route");
const consistencyRoute = await import("../app/api/v1/log/consistency/route");
const entriesRoute = await import("../app/api/v1/log/entries/route");

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const get = (h: Handler, url: string, token?: string, params: Record<string, string> = {}) =>
  h(new Request(`http://127.0.0.1:3000${url}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }), { params: Promise.resolve(params) });
const payloadOf = (envelope: { payload: string }) => JSON.parse(Buffer.from(envelope.payload, "base64").toString("utf8"));
const signedBy = (envelope: { payloadType: string; payload: string; signatures: Array<{ sig: string }> }, pem: string) => {
  const { paeBytes } = { paeBytes: (t: string, p: Buffer) => Buffer.concat([Buffer.from(`DSSEv1 ${Buffer.byteLength(t)} ${t} ${p.length} `), p]) };
  const p = Buffer.from(envelope.payload, "base64");
  return envelope.signatures.some((s) => verify(null, paeBytes(envelope.payloadType, p), createPublicKey(pem), Buffer.from(s.sig, "base64")));
};

let viewerToken = "";
let pem = "";
const launch = (seed: number, models = ["baseline:calibrated:0.8"], over: Record<string, unknown> = {}) =>
  engine.createRun(db(), { models, config: engine.presetConfig("smoke", { tests: ["objective"] }), seed, ...over });

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const v = await createUser(db(), { email: "viewer@example.org", name: "V", password: "viewer-password", role: "viewer" });
  viewerToken = (await createToken(db(), v.id, { name: "t" })).secret;
  pem = publicKeyInfo().pem;
});

describe("the design committed at launch", () => {
  it("is signed and logged before a single query is written, and sent to webhooks", async () => {
    await createWebhook(db(), { url: "http://127.0.0.1:9/hooks", events: ["run.launched"] }, null);
    const prepared = await engine.prepareRun(db(), {
      models: ["baseline:uniform"],
      config: engine.presetConfig("smoke", { tests: ["objective"] }),
      seed: 3,
      budgetUsd: 5,
    });
    // Nothing planned yet, so nothing can have been called — and the design is already in the log.
    expect(await db().query.count({ where: { runId: prepared.run.id } })).toBe(0);
    const entry = await db().logEntry.findFirstOrThrow({ where: { runId: prepared.run.id, kind: "design" } });
    expect(entry.leafHash).toBe(toHex(leafHash(Buffer.from(entry.body))));
    const envelope = JSON.parse(entry.body);
    expect(signedBy(envelope, pem)).toBe(true);
    const statement = designStatementSchema.parse(payloadOf(envelope));
    expect(statement.subject[0].digest.sha256).toBe(designDigest(statement.predicate));
    expect(statement.predicate).toMatchObject({
      run: { id: prepared.run.id, seed: 3, preset: "custom", suite: "fact-or-fair" },
      plannedCount: prepared.run.plannedCount,
      budgetUsd: 5,
      stopping: null,
      models: [{ slug: "baseline:uniform", role: "audited" }],
    });
    const version = await db().benchmarkVersion.findFirstOrThrow({ where: { id: prepared.run.benchmarkVersionId } });
    expect(statement.predicate.content.sha256).toBe(version.sha256);
    const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { event: "run.launched", subject: prepared.run.id } });
    expect(JSON.parse(delivery.payloadJson).design).toEqual(envelope);
    await prepared.plan();
  });

  it("serves the design with its proof; checkpoints and proofs are public, entries need an account", async () => {
    const run = await launch(4);
    expect((await get(designRoute.GET as Handler, `/api/v1/runs/${run.id}/design`, undefined, { id: run.id })).status).toBe(401);
    const res = await get(designRoute.GET as Handler, `/api/v1/runs/${run.id}/design`, viewerToken, { id: run.id });
    expect(res.status).toBe(200);
    const { design, log: proof } = await res.json();
    const cp = checkpointSchema.parse(payloadOf(proof.checkpoint));
    expect(signedBy(proof.checkpoint, pem)).toBe(true);
    expect(verifyInclusion(proof.index, proof.size, leafHash(Buffer.from(JSON.stringify(design))), proof.proof.map(fromHex), fromHex(cp.rootHash))).toBe(true);
    const publicCp = await (await get(checkpointRoute.GET as Handler, "/api/v1/log/checkpoint")).json();
    expect(publicCp.checkpoint.size).toBeGreaterThanOrEqual(2);
    expect((await get(proofRoute.GET as Handler, `/api/v1/log/proof?run=${run.id}`)).status).toBe(200);
    expect((await get(consistencyRoute.GET as Handler, "/api/v1/log/consistency?from=1")).status).toBe(200);
    expect((await get(entriesRoute.GET as Handler, "/api/v1/log/entries?from=0&to=2")).status).toBe(401);
    expect((await (await get(entriesRoute.GET as Handler, "/api/v1/log/entries?from=0&to=2", viewerToken)).json()).entries).toHaveLength(2);
  });
});

describe("the transparency log", () => {
  it("proves a later checkpoint extends a kept one and lists every launch in between per model; a rewritten log fails", async () => {
    const kept = await log.checkpoint(db());
    const keptFile = path.join(dir, "kept.json");
    writeFileSync(keptFile, JSON.stringify(kept));
    // Three more launches: two of one model, one of another.
    await launch(11, ["baseline:calibrated:0.5"]);
    await launch(12, ["baseline:calibrated:0.5"]);
    await launch(13, ["baseline:oracle"]);
    const later = await log.checkpoint(db());
    const laterFile = path.join(dir, "later.json");
    writeFileSync(laterFile, JSON.stringify(later));
    const p = await log.consistency(db(), kept.checkpoint.size, later.checkpoint.size);
    expect(
      verifyConsistency(
        kept.checkpoint.size,
        later.checkpoint.size,
        fromHex(kept.checkpoint.rootHash),
        fromHex(later.checkpoint.rootHash),
        p.proof.map(fromHex),
      ),
    ).toBe(true);
    // The CLI says the same and lists the launches, per model.
    const { consistencyCommand } = await import("../bin/commands/log");
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((s: string) => (out.push(s), true)) as typeof process.stdout.write;
    try {
      await consistencyCommand(null, keptFile, laterFile, { json: true });
    } finally {
      process.stdout.write = write;
    }
    const verdict = JSON.parse(out.join(""));
    expect(verdict.consistent).toBe(true);
    expect(verdict.perModel).toEqual({ "baseline:calibrated:0.5": 2, "baseline:oracle": 1 });
    // The listing is read from the signed designs in the log's own leaves: a column edited beside them changes
    // nothing, and an entry's body edited no longer matches the checkpoints.
    const last = await db().logEntry.findFirstOrThrow({ orderBy: { index: "desc" } });
    await db().logEntry.update({ where: { index: last.index }, data: { models: "baseline:uniform" } });
    const again = async () => {
      out.length = 0;
      process.stdout.write = ((x: string) => (out.push(x), true)) as typeof process.stdout.write;
      try {
        await consistencyCommand(null, keptFile, laterFile, { json: true });
      } finally {
        process.stdout.write = write;
      }
      return JSON.parse(out.join(""));
    };
    expect((await again()).perModel).toEqual({ "baseline:calibrated:0.5": 2, "baseline:oracle": 1 });
    await db().logEntry.update({ where: { index: last.index }, data: { body: `${last.body} ` } });
    await expect(again()).rejects.toThrow(/not the leaves its checkpoints sign/);
    await db().logEntry.update({ where: { index: last.index }, data: { body: last.body, models: last.models } });
    // The log rewritten: one earlier entry removed (its run hidden). A checkpoint of the rewritten log is not
    // consistent with the kept one, whatever proof is offered.
    const rows = await db().logEntry.findMany({ orderBy: { index: "asc" } });
    const hashes = rows.map((r) => fromHex(r.leafHash));
    const rewritten = [...hashes.slice(0, 1), ...hashes.slice(2)];
    const forgedRoot = rootHash(rewritten);
    const { consistencyProof } = await import("../lib/evidence/merkle");
    const forgedProof = consistencyProof(kept.checkpoint.size - 1, rewritten.length, rewritten);
    expect(verifyConsistency(kept.checkpoint.size, rewritten.length, fromHex(kept.checkpoint.rootHash), forgedRoot, forgedProof)).toBe(false);
    // Two views: a second outsider shown a log where one launch's design was swapped — their checkpoint and the
    // first outsider's cannot both be extended by one log.
    const forked = [...hashes];
    forked[1] = leafHash(Buffer.from("another design"));
    expect(
      verifyConsistency(
        kept.checkpoint.size,
        forked.length,
        fromHex(kept.checkpoint.rootHash),
        rootHash(forked),
        consistencyProof(kept.checkpoint.size, forked.length, forked),
      ),
    ).toBe(false);
  });
});

describe("a bundle against its design", () => {
  let bundle = "";
  let runId = "";
  let designFile = "";
  beforeAll(async () => {
    const run = await launch(21, ["baseline:calibrated:0.8"]);
    await new engine.Worker(db(), { runId: run.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
    runId = run.id;
    bundle = path.join(dir, "audit.zip");
    await writeBundle(db(), run.id, bundle);
    // The outsider held the design before any result: `fof design RUN -o design.json`.
    designFile = path.join(dir, "design.json");
    const { designApi } = await import("../lib/server/api/log");
    writeFileSync(designFile, JSON.stringify(await designApi(run.id)));
  }, 120_000);

  it("carries it, and verifies against it and against the design the reader held", async () => {
    const e = unzipSync(readFileSync(bundle));
    expect(JSON.parse(Buffer.from(e["manifest.json"]!).toString()).format).toBe("fof-evidence/v3");
    expect(e["design.dsse.json"]).toBeDefined();
    const r = await verifyBundle(bundle, { publicKeyPem: pem, heldDesign: readFileSync(designFile) });
    expect(r.checks.filter((c) => !c.ok)).toEqual([]);
    expect(r.checks.find((c) => c.check === "design")!.detail).toMatch(/signed at launch .* entry \d+ of the log .*the very design you held/);
  });

  it("names an insider's change to the run (a seed) re-signed over the genuine design", async () => {
    const file = tampered(
      bundle,
      dir,
      "seed",
      (e) => {
        const run = JSON.parse(Buffer.from(e["run.json"]!).toString());
        e["run.json"] = Buffer.from(JSON.stringify({ ...run, seed: run.seed + 1 }));
      },
      signingKey(),
    );
    const r = await verifyBundle(file, { publicKeyPem: pem });
    expect(r.checks.find((c) => !c.ok)).toMatchObject({ check: "design", detail: expect.stringMatching(/run\.seed: the design said 21, the bundle says 22/) });
  });

  it("refuses a planned count lowered without a cancel or a stop (queries deleted with it), and shows the models as launched", async () => {
    const file = tampered(
      bundle,
      dir,
      "fewer",
      (e) => {
        const qs = Buffer.from(e["queries.jsonl"]!)
          .toString()
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l));
        const dropped = new Set(qs.slice(0, 3).map((q) => q.id));
        const keep = (name: string, key: string) =>
          (e[name] = Buffer.from(
            Buffer.from(e[name]!)
              .toString()
              .split("\n")
              .filter(Boolean)
              .filter((l) => !dropped.has(JSON.parse(l)[key]))
              .map((l) => l + "\n")
              .join(""),
          ));
        keep("queries.jsonl", "id");
        keep("outcomes.jsonl", "queryId");
        const run = JSON.parse(Buffer.from(e["run.json"]!).toString());
        e["run.json"] = Buffer.from(JSON.stringify({ ...run, plannedCount: run.plannedCount - 3 }));
      },
      signingKey(),
    );
    const r = await verifyBundle(file, { publicKeyPem: pem });
    expect(r.checks.find((c) => !c.ok)).toMatchObject({
      check: "design",
      detail: expect.stringMatching(/plannedCount: the design said \d+, the bundle says \d+ \(a completed run that no stopping rule stopped\)/),
    });
    // The model's record edited after launch: the report states the model as launched, and what its record says now.
    const launched = await db().modelConfig.findUniqueOrThrow({ where: { slug: "baseline:calibrated:0.8" } });
    await db().modelConfig.update({ where: { id: launched.id }, data: { label: "GPT-4o (renamed)" } });
    try {
      const again = path.join(dir, "renamed.zip");
      await writeBundle(db(), runId, again);
      const report = Buffer.from(unzipSync(readFileSync(again))["report.html"]!).toString();
      expect(report).toContain(`<td>${launched.label}</td>`);
      expect(report).toMatch(/its record now: label GPT-4o \(renamed\)/);
      expect((await verifyBundle(again, { publicKeyPem: pem, heldDesign: readFileSync(designFile) })).ok).toBe(true);
    } finally {
      await db().modelConfig.update({ where: { id: launched.id }, data: { label: launched.label } });
    }
  });

  it("catches an insider who also forges the design with the real key — given the design the outsider held", async () => {
    const key = signingKey();
    const file = tampered(
      bundle,
      dir,
      "forged-design",
      (e) => {
        const run = JSON.parse(Buffer.from(e["run.json"]!).toString());
        e["run.json"] = Buffer.from(JSON.stringify({ ...run, seed: 99 }));
        const old = designStatementSchema.parse(payloadOf(JSON.parse(Buffer.from(e["design.dsse.json"]!).toString())));
        const predicate = { ...old.predicate, run: { ...old.predicate.run, seed: 99 } };
        const design = JSON.stringify(
          signEnvelope(Buffer.from(JSON.stringify(designStatementFor(predicate, designDigest(predicate)))), IN_TOTO_PAYLOAD_TYPE, key),
        );
        e["design.dsse.json"] = Buffer.from(design);
        // a log of one entry, its checkpoint signed with the real key
        const leaf = leafHash(Buffer.from(design));
        const cp = { origin: "forged", size: 1, rootHash: toHex(leaf), time: new Date().toISOString() };
        const checkpoint = signEnvelope(Buffer.from(JSON.stringify(cp)), "application/vnd.fact-or-fair.checkpoint+json", key);
        e["log-proof.json"] = Buffer.from(JSON.stringify({ index: 0, size: 1, leafHash: toHex(leaf), proof: [], checkpoint }));
      },
      key,
    );
    // Alone, the bundle is consistent with itself (the key signs whatever its holder wants: the documented limit)…
    expect((await verifyBundle(file, { publicKeyPem: pem })).checks.find((c) => c.check === "design")?.ok).toBe(true);
    // …but not with the design the outsider held before the results existed.
    const r = await verifyBundle(file, { publicKeyPem: pem, heldDesign: readFileSync(designFile) });
    expect(r.checks.find((c) => !c.ok)).toMatchObject({
      check: "design",
      detail: expect.stringMatching(/not the run of the design you hold: run\.seed: the design said 21, the bundle says 99/),
    });
    // and the real log (a checkpoint kept, `fof log prove`) has the genuine design at the run's entry, not the forgery
    const real = await log.inclusion(db(), runId);
    expect(real.leafHash).not.toBe(toHex(leafHash(unzipSync(readFileSync(file))["design.dsse.json"]!)));
    expect(real.leafHash).toBe(toHex(leafHash(unzipSync(readFileSync(bundle))["design.dsse.json"]!)));
  });
});

describe("the plan at launch, for lists", () => {
  it("reads each run's signed planned count, whatever its row says later (a cancel while planning keeps fewer rows)", async () => {
    const { plannedAtLaunch } = await import("../lib/features/ledger/design");
    const run = await engine.createRun(db(), { models: ["baseline:uniform"], config: engine.presetConfig("smoke"), seed: 91 });
    await db().run.update({ where: { id: run.id }, data: { status: "cancelled", plannedCount: 10 } });
    const got = await plannedAtLaunch(db(), [run.id, "no-such-run"]);
    expect(got.get(run.id)).toBe(run.plannedCount);
    expect(got.has("no-such-run")).toBe(false);
    // the run page says it too
    expect((await engine.runSummary(db(), run.id))!.plannedAtLaunch).toBe(run.plannedCount);
  });
});
