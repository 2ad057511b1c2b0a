// The remote CLI: `fof --server … --token … run --wait --fail-under …` launches through /api/v1, follows the run while a
// worker works it, prints its scores and gates on them (exit 5 on a missed gate, 0 on a loose one); scores and export
// read a stored run the same way. The route handlers are served by a plain Node HTTP server in this process.
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testDataDir } from "./helpers/data-dir";
import { sqliteOnly } from "./helpers/databases";

// This harness serves the route handlers without Next, whose page cache the import commit refreshes.
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const dataDir = testDataDir("fof-remote-cli-");
process.env.FOF_DATA_DIR = dataDir;
const exec = promisify(execFile);

const { db, migrateAndSeed } = await import("../lib/db");
const { createUser } = await import("../lib/auth/users");
const { createToken } = await import("../lib/auth/tokens");
const { Worker, upsertModel } = await import("./helpers/services");
const SHARED = path.resolve(__dirname, "../../shared/models/test-images");

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const ROUTES: Array<[RegExp, Record<string, Handler>]> = [
  [/^\/api\/v1\/runs$/, (await import("../app/api/v1/runs/route")) as never],
  [/^\/api\/v1\/runs\/(?<id>[^/]+)$/, (await import("../app/api/v1/runs/[id]/route")) as never],
  [/^\/api\/v1\/runs\/(?<id>[^/]+)\/scores$/, (await import("../app/api/v1/runs/[id]/scores/route")) as never],
  [/^\/api\/v1\/runs\/(?<id>[^/]+)\/export$/, (await import("../app/api/v1/runs/[id]/export/route")) as never],
  [/^\/api\/v1\/runs\/(?<id>[^/]+)\/bundle$/, (await import("../app/api/v1/runs/[id]/bundle/route")) as never],
  [/^\/api\/v1\/models$/, (await import("../app/api/v1/models/route")) as never],
  [/^\/api\/v1\/suites$/, (await import("../app/api/v1/suites/route")) as never],
  [/^\/api\/v1\/imports$/, (await import("../app/api/v1/imports/route")) as never],
  [/^\/api\/v1\/imports\/(?<id>[^/]+)\/files$/, (await import("../app/api/v1/imports/[id]/files/route")) as never],
  [/^\/api\/v1\/imports\/(?<id>[^/]+)\/commit$/, (await import("../app/api/v1/imports/[id]/commit/route")) as never],
];

let server: Server;
let url = "";
let token = "";
let stop = () => {};
const worker = { done: Promise.resolve() };

/**
 * `fof` with the server and token in the environment (as a CI job holds them), or given as flags (`flags`);
 * resolves with the exit code.
 */
async function fof(args: string[], { flags = false } = {}) {
  try {
    const where = flags ? { FOF_SERVER: "", FOF_TOKEN: "" } : { FOF_SERVER: url, FOF_TOKEN: token };
    const { stdout, stderr } = await exec("npm", ["run", "--silent", "fof", "--", ...(flags ? ["--server", url, "--token", token] : []), ...args], {
      // No database for the CLI: everything goes through the server.
      env: { ...process.env, ...where, FOF_DATA_DIR: mkdtempSync(path.join(tmpdir(), "fof-ci-")), DATABASE_URL: "" },
      maxBuffer: 20 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const user = await createUser(db(), { email: "ci@example.org", name: "CI", password: "test-password-123", role: "runner" });
  await upsertModel(db(), { slug: "mj-ci", label: "Made elsewhere", modality: "t2i", provider: "import" });
  token = (await createToken(db(), user.id, { name: "ci" })).secret;
  server = createServer(async (req, res) => {
    const u = new URL(req.url ?? "/", "http://127.0.0.1");
    const hit = ROUTES.map(([re, mod]) => [re.exec(u.pathname), mod] as const).find(([m]) => m);
    const handler = hit?.[1][req.method ?? "GET"];
    if (!hit || !handler) {
      res.writeHead(404).end(JSON.stringify({ error: "no route", code: "not_found" }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const response = await handler(
      new Request(u.toString().replace("http://127.0.0.1", url), {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      }),
      { params: Promise.resolve({ ...hit[0]!.groups }) },
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The team server's worker: works whatever is launched until the tests end.
  const w = new Worker(db(), { pollMs: 20, flushMs: 20 });
  worker.done = w.run();
  stop = () => w.stop();
});
afterAll(async () => {
  stop();
  await worker.done;
  await new Promise((ok) => server.close(ok));
  await db().$disconnect();
});

// The API's routes on PostgreSQL: api-v1.integration.test.ts and token-scope.integration.test.ts.
describe.skipIf(sqliteOnly)("fof --server --token", () => {
  it("gates a release: a uniform baseline misses d<=0.01 (exit 5) and passes a loose gate (exit 0)", async () => {
    const strict = await fof(["run", "-m", "baseline:uniform", "-p", "smoke", "-t", "objective", "--wait", "--fail-under", "d<=0.01"], { flags: true });
    expect(strict.stderr).toMatch(/launched \S+ \(76 queries\)/);
    expect(strict.stderr).toMatch(/FAIL {2}baseline:uniform {2}d<=0\.01 {2}\(worst 0\.\d+\)/);
    expect(strict.code).toBe(5);
    expect(JSON.parse(strict.stdout).results.length).toBeGreaterThan(0);

    const loose = await fof(["run", "-m", "baseline:uniform", "-p", "smoke", "-t", "objective", "--wait", "--fail-under", "d<=1"]);
    expect(loose.stderr).toMatch(/pass {2}baseline:uniform {2}d<=1/);
    expect(loose.code).toBe(0);
  }, 180_000);

  it.skipIf(!existsSync(SHARED))(
    "imports a folder of images made elsewhere, all or nothing",
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "fof-remote-import-"));
      mkdirSync(path.join(dir, "objective/crime-rate/highest"), { recursive: true });
      copyFileSync(path.join(SHARED, "astronaut-eileen-collins.png"), path.join(dir, "objective/crime-rate/highest/a.png"));
      copyFileSync(path.join(SHARED, "no-face-coffee.png"), path.join(dir, "objective/crime-rate/highest/b.png"));
      const done = await fof(["import", "--model", "mj-ci", path.join(dir, "objective")]);
      expect(done.code).toBe(0);
      const { runId, imported } = JSON.parse(done.stdout);
      expect(imported).toBe(2);
      expect(await db().image.count({ where: { runId } })).toBe(2);
      copyFileSync(path.join(SHARED, "grace-hopper-512.jpg"), path.join(dir, "unmapped.jpg"));
      const refused = await fof(["import", "--model", "mj-ci", dir]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/unmapped\.jpg: /);
    },
    120_000,
  );

  it("reads a stored run's scores and export, and says why when the server refuses", async () => {
    const launched = await fof(["run", "-m", "baseline:oracle", "-p", "smoke", "-t", "objective"]);
    expect(launched.code).toBe(0);
    const { run } = JSON.parse(launched.stdout);
    // Without --wait the run is only launched; the server's worker finishes it.
    for (let i = 0; i < 300 && (await db().run.findUnique({ where: { id: run.id } }))?.status !== "completed"; i++)
      await new Promise((r) => setTimeout(r, 100));
    const scores = await fof(["scores", run.id]);
    expect(JSON.parse(scores.stdout).results[0]).toMatchObject({ model: "baseline:oracle", sFact: 1 });
    const lines = (await fof(["export", run.id])).stdout.trim().split("\n");
    // One interchange line per scored answer: as many as the scores count.
    expect(lines).toHaveLength(JSON.parse(scores.stdout).results.reduce((a: number, g: { n: number }) => a + g.n, 0));
    expect(JSON.parse(lines[0])).toMatchObject({ model: "baseline:oracle" });
    // the signed evidence bundle, downloaded with the token, verifies against the server's key
    const zip = path.join(mkdtempSync(path.join(tmpdir(), "fof-ci-bundle-")), "audit.zip");
    expect((await fof(["bundle", run.id, "-o", zip])).code).toBe(0);
    const { verifyBundle } = await import("../lib/features/evidence/verify");
    const { publicKeyInfo } = await import("../lib/features/ledger/keys");
    expect((await verifyBundle(zip, { publicKeyPem: publicKeyInfo().pem })).ok).toBe(true);
    const refused = await fof(["scores", "no-such-run"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/404 run not found/);
    token = "fof_revoked-or-wrong";
    const denied = await fof(["scores", run.id]);
    expect(denied.stderr).toMatch(/401 sign in first/);
  }, 180_000);
});
