// Steering a run while it is still being planned (issue #56, item 1): pause, resume and cancel are accepted in
// "planning" through the API, the engine and the CLI. A paused planning run plans on but calls nothing until it is
// resumed (back to "planning" while rows are still being written, "running" after); a cancelled one stops planning,
// releases its budget commitment and ends cancelled. The permission rules are the run page's.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const dataDir = testDataDir("fof-steer-planning-");
process.env.FOF_DATA_DIR = dataDir;
const exec = promisify(execFile);
const fof = (args: string[]) => exec("npm", ["run", "--silent", "fof", "--", ...args], { env: { ...process.env, FOF_DATA_DIR: dataDir } });

const { db, migrateAndSeed } = await import("../lib/db");
const { createUser } = await import("../lib/auth/users");
const { createToken } = await import("../lib/auth/tokens");
const { leftUsd } = await import("../lib/auth/spending");
const { plansSettled, runsPlannedHere } = await import("../lib/features/runs/planning");
const { prepareRun, setRunState, presetConfig, Worker } = await import("./helpers/services");
const runs = await import("../app/api/v1/runs/route");
const pause = await import("../app/api/v1/runs/[id]/pause/route");
const resume = await import("../app/api/v1/runs/[id]/resume/route");
const cancel = await import("../app/api/v1/runs/[id]/cancel/route");

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
function post(handler: unknown, url: string, token: string, body: unknown = {}, params: Record<string, string> = {}) {
  return (handler as Handler)(
    new Request(`http://127.0.0.1:3000${url}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve(params) },
  );
}
const steer = (action: "pause" | "resume" | "cancel", id: string, token: string) =>
  post({ pause: pause.POST, resume: resume.POST, cancel: cancel.POST }[action], `/api/v1/runs/${id}/${action}`, token, {}, { id });
const row = (id: string) => db().run.findUniqueOrThrow({ where: { id }, select: { status: true, planning: true, plannedCount: true, spentUsd: true } });
const rows = (runId: string) => db().query.count({ where: { runId } });
const outcomes = (runId: string) => db().outcome.count({ where: { query: { runId } } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let owner = { id: "", token: "" };
let otherRunner = "";
let viewer = "";
let worker: InstanceType<typeof Worker>;
let working: Promise<void>;

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const u = await createUser(db(), { email: "owner@example.org", name: "Owner", password: "test-password-123", role: "runner" });
  await db().user.update({ where: { id: u.id }, data: { spendingLimitUsd: 10 } });
  owner = { id: u.id, token: (await createToken(db(), u.id, { name: "ci" })).secret };
  const o = await createUser(db(), { email: "other@example.org", name: "Other", password: "test-password-123", role: "runner" });
  otherRunner = (await createToken(db(), o.id, { name: "other" })).secret;
  const v = await createUser(db(), { email: "viewer@example.org", name: "Viewer", password: "test-password-123", role: "viewer" });
  viewer = (await createToken(db(), v.id, { name: "viewer" })).secret;
  // The server's own worker: it calls a planning run's rows as they are written (plannedHere), as `npm start`'s does.
  worker = new Worker(db(), { plannedHere: runsPlannedHere, pollMs: 10, flushMs: 10, runCheckMs: 100 });
  working = worker.run();
});
afterAll(async () => {
  worker.stop();
  await working;
  await plansSettled();
  await db().$disconnect();
});

async function launch(preset: string, budgetUsd?: number) {
  const res = await post(runs.POST, "/api/v1/runs", owner.token, {
    suite: "fact-or-fair",
    models: ["baseline:uniform"],
    preset,
    seed: 5,
    ...(budgetUsd === undefined ? {} : { budgetUsd }),
  });
  expect(res.status).toBe(202);
  const { run } = (await res.json()) as { run: { id: string; status: string; plannedCount: number } };
  expect(run.status).toBe("planning");
  return run;
}

describe("steering a run while it is planned, through /api/v1", () => {
  it("pause: it plans on, calls nothing until resumed, then completes", async () => {
    const run = await launch("quick");
    const paused = await steer("pause", run.id, owner.token);
    expect(paused.status).toBe(200);
    expect((await paused.json()).run.status).toBe("paused");
    // It was paused while planning (the planner is still writing its 6,080 rows).
    expect(await row(run.id)).toMatchObject({ status: "paused", planning: true });
    await plansSettled();
    // Every row was written, and the run stayed paused.
    expect(await row(run.id)).toMatchObject({ status: "paused", planning: false, plannedCount: run.plannedCount });
    expect(await rows(run.id)).toBe(run.plannedCount);
    // In-flight calls finish; nothing new is called while paused (the worker re-reads runs every 100 ms here).
    await sleep(400);
    const settled = await outcomes(run.id);
    await sleep(600);
    expect(await outcomes(run.id)).toBe(settled);
    expect(settled).toBeLessThan(run.plannedCount);
    const resumed = await steer("resume", run.id, owner.token);
    expect((await resumed.json()).run.status).toBe("running");
    for (let i = 0; i < 600 && (await row(run.id)).status !== "completed"; i++) await sleep(50);
    expect(await row(run.id)).toMatchObject({ status: "completed", planning: false });
    expect(await outcomes(run.id)).toBe(run.plannedCount);
    const audit = await db().auditLog.findMany({ where: { targetId: run.id, action: { in: ["run.pause", "run.resume"] } }, orderBy: { at: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["run.pause", "run.resume"]);
  });

  it("resume while still planning goes back to planning; cancel stops planning and releases the budget it held", async () => {
    expect(await leftUsd(db(), { id: owner.id, spendingLimitUsd: 10 })).toBeCloseTo(10, 9);
    const run = await launch("paper", 4);
    // Its budget is committed against the owner's limit while it lives.
    expect(await leftUsd(db(), { id: owner.id, spendingLimitUsd: 10 })).toBeCloseTo(6, 9);
    // Same rules as the run page: neither a viewer nor another runner steers it.
    expect((await steer("pause", run.id, viewer)).status).toBe(403);
    expect((await steer("cancel", run.id, otherRunner)).status).toBe(403);
    expect((await (await steer("pause", run.id, owner.token)).json()).run.status).toBe("paused");
    expect(await row(run.id)).toMatchObject({ status: "paused", planning: true });
    const resumed = await steer("resume", run.id, owner.token);
    expect((await resumed.json()).run.status).toBe("planning");
    expect(await row(run.id)).toMatchObject({ status: "planning", planning: true });
    const cancelled = await steer("cancel", run.id, owner.token);
    expect((await cancelled.json()).run.status).toBe("cancelled");
    await plansSettled();
    const after = await row(run.id);
    expect(after).toMatchObject({ status: "cancelled", planning: false });
    // Planning stopped: the rows written so far stay, and nothing more was planned.
    const written = await rows(run.id);
    expect(written).toBeLessThan(run.plannedCount);
    expect(after.plannedCount).toBe(written);
    // A cancelled run commits what it spent, not its budget.
    expect(await leftUsd(db(), { id: owner.id, spendingLimitUsd: 10 })).toBeCloseTo(10 - after.spentUsd, 9);
    const again = await steer("resume", run.id, owner.token);
    expect(again.status).toBe(400);
    expect((await again.json()).error).toMatch(/cannot resume a cancelled run/);
  });
});

describe("the engine and the CLI on a run whose planner has not yet written a row", () => {
  const prepare = () => prepareRun(db(), { models: ["baseline:uniform"], config: presetConfig("smoke"), seed: 9 }, { chunk: 100 });

  it("fof pause / resume on a planning run: paused, it plans to the end and stays paused; resumed, it runs", async () => {
    const prepared = await prepare();
    const id = prepared.run.id;
    const { stdout } = await fof(["pause", id]);
    expect(JSON.parse(stdout)).toMatchObject({ run: { id, status: "paused" } });
    const planned = await prepared.plan();
    expect(planned).toMatchObject({ status: "paused", planning: false });
    expect(await rows(id)).toBe(planned.plannedCount);
    expect(JSON.parse((await fof(["resume", id])).stdout).run.status).toBe("running");
    const audit = await db().auditLog.findFirstOrThrow({ where: { targetId: id, action: "run.pause" } });
    expect(audit.userId).toBeNull();
    expect(JSON.parse(audit.detailsJson ?? "{}")).toMatchObject({ via: "cli" });
  });

  it("fof cancel on a planning run: planning stops before its first row; a second cancel is refused", async () => {
    const prepared = await prepare();
    const id = prepared.run.id;
    expect(JSON.parse((await fof(["cancel", id])).stdout).run.status).toBe("cancelled");
    expect(await prepared.plan()).toMatchObject({ status: "cancelled", planning: false, plannedCount: 0 });
    expect(await rows(id)).toBe(0);
    await expect(fof(["cancel", id])).rejects.toMatchObject({ stderr: expect.stringMatching(/cannot cancel a cancelled run/) });
  });

  it("resumed mid-plan, a paused run goes back to planning and ends running once its last row is in", async () => {
    const prepared = await prepareRun(db(), { models: ["baseline:uniform"], config: presetConfig("quick"), seed: 11 }, { chunk: 100, share: 0.3 });
    const id = prepared.run.id;
    await setRunState(db(), id, "pause");
    const planning = prepared.plan();
    while ((await rows(id)) < 300) await sleep(2);
    expect((await setRunState(db(), id, "resume")).status).toBe("planning");
    expect(await planning).toMatchObject({ status: "running", planning: false });
    expect(await rows(id)).toBe(6_080);
  });
});
