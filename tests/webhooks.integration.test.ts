// Webhooks: a run that ends is delivered to the hooks that want its event, signed (the receiver recomputes the HMAC
// with the secret and refuses a tampered body or an old timestamp), retried with backoff after a 500 until answered
// 2xx, every attempt logged with its status; hooks on private addresses are refused unless the operator allows them.
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-webhooks-");

const { db, migrateAndSeed } = await import("../lib/db");
const { createRun, presetConfig, Worker } = await import("./helpers/services");
const { createWebhook, deliveryPage, listDeliveries } = await import("../lib/features/webhooks/hooks");
const { deliverDue } = await import("../lib/features/webhooks/deliver");
const { verifySignature } = await import("../lib/features/webhooks/signature");
const { steerRun } = await import("../lib/features/runs/steer");
const { emitRunEvent } = await import("../lib/features/webhooks/emit");

let server: Server;
let url = "";
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
/** What the receiver answers next (then 200). */
const answers: number[] = [];

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
    res.writeHead(answers.shift() ?? 200).end("ok");
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/fof`;
});
afterAll(async () => {
  delete process.env.FOF_ALLOWED_ENDPOINTS;
  await new Promise((ok) => server.close(ok));
  await db().$disconnect();
});

describe("webhooks", () => {
  it("refuse a private or link-local target unless the operator allows it", async () => {
    delete process.env.FOF_ALLOWED_ENDPOINTS;
    await expect(createWebhook(db(), { url: "http://169.254.169.254/latest/meta-data", events: ["run.completed"] }, null)).rejects.toThrow(
      /link-local|FOF_ALLOWED_ENDPOINTS/,
    );
    await expect(createWebhook(db(), { url, events: ["run.completed"] }, null)).rejects.toThrow(/FOF_ALLOWED_ENDPOINTS/);
    await expect(createWebhook(db(), { url: "ftp://example.org/x", events: ["run.completed"] }, null)).rejects.toThrow();
    await expect(createWebhook(db(), { url: "https://example.org/x", events: [] }, null)).rejects.toThrow(/at least one event/);
  });

  it("deliver a finished run signed, retry after a 500, and log each attempt's status", async () => {
    process.env.FOF_ALLOWED_ENDPOINTS = "127.0.0.1";
    const { secret } = await createWebhook(db(), { url, events: ["run.completed", "run.cancelled"] }, null);
    const run = await createRun(db(), { models: ["baseline:oracle"], config: presetConfig("smoke", { tests: ["objective"] }), seed: 1 });
    // Deliveries are driven by hand below (the worker's own timer is set beyond the test).
    await new Worker(db(), { runId: run.id, pollMs: 10, flushMs: 10, webhookPollMs: 3_600_000 }).run({ untilDone: true });
    const [pending] = await listDeliveries(db());
    expect(pending).toMatchObject({ event: "run.completed", subject: run.id, status: "pending", attempts: 0 });

    answers.push(500);
    const t0 = Date.now();
    expect(await deliverDue(db(), { now: t0 })).toBe(1);
    let [d] = await listDeliveries(db());
    expect(d).toMatchObject({ status: "pending", attempts: 1 });
    expect(d.tries[0]).toMatchObject({ status: 500, error: "HTTP 500" });
    // Not due again before its backoff…
    expect(await deliverDue(db(), { now: t0 + 1_000 })).toBe(0);
    // …then sent again, answered 200, and done.
    expect(await deliverDue(db(), { now: t0 + 11_000 })).toBe(1);
    [d] = await listDeliveries(db());
    expect(d).toMatchObject({ status: "delivered", attempts: 2 });
    expect(d.tries.map((t) => t.status)).toEqual([500, 200]);
    expect(await deliverDue(db(), { now: t0 + 60_000 })).toBe(0);

    // What the receiver got, twice: the same delivery id and body, each signed over its own timestamp.
    expect(received).toHaveLength(2);
    const last = received[1];
    expect(last.headers["x-fof-event"]).toBe("run.completed");
    expect(last.headers["x-fof-delivery"]).toBe(d.id);
    expect(JSON.parse(last.body)).toMatchObject({
      event: "run.completed",
      run: { id: run.id, status: "completed", outcome: "completed", items: { failed: 0, open: 0 }, suite: "fact-or-fair" },
    });
    const sig = String(last.headers["x-fof-signature"]);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(sig)!;
    expect(createHmac("sha256", secret).update(`${t}.${last.body}`).digest("hex")).toBe(v1);
    expect(verifySignature(secret, sig, last.body)).toBe(true);
    expect(verifySignature(secret, sig, last.body.replace("completed", "cancelled"))).toBe(false);
    expect(verifySignature("whsec_wrong", sig, last.body)).toBe(false);
    expect(verifySignature(secret, sig, last.body, Date.now() + 10 * 60_000)).toBe(false);

    // A run that completed with a failed item never reads as a clean completion.
    const flawed = await createRun(db(), { models: ["baseline:oracle"], config: presetConfig("smoke", { tests: ["objective"] }), seed: 4 });
    await new Worker(db(), { runId: flawed.id, pollMs: 10, flushMs: 10, webhookPollMs: 3_600_000 }).run({ untilDone: true });
    const one = await db().query.findFirstOrThrow({ where: { runId: flawed.id }, select: { id: true } });
    await db().query.update({ where: { id: one.id }, data: { status: "failed" } });
    await db().webhookDelivery.deleteMany({ where: { subject: flawed.id } });
    await emitRunEvent(db(), flawed.id, "run.completed");
    const flawedPayload = JSON.parse((await db().webhookDelivery.findFirstOrThrow({ where: { subject: flawed.id } })).payloadJson);
    expect(flawedPayload.run).toMatchObject({ status: "completed", outcome: "completed with 1 failed", items: { failed: 1 } });

    // A cancelled run is its own event; emitting twice delivers once.
    const other = await createRun(db(), { models: ["baseline:oracle"], config: presetConfig("smoke", { tests: ["objective"] }), seed: 2 });
    await steerRun(db(), { id: "admin", role: "admin", spendingLimitUsd: null }, other.id, "cancel");
    const cancelled = (await listDeliveries(db())).filter((x) => x.subject === other.id);
    expect(cancelled.map((x) => x.event)).toEqual(["run.cancelled"]);
  });

  it("give up after the last attempt, and a receiver that now resolves privately is refused at delivery", async () => {
    process.env.FOF_ALLOWED_ENDPOINTS = "127.0.0.1";
    await createWebhook(db(), { url, events: ["run.failed"] }, null);
    const run = await createRun(db(), { models: ["baseline:oracle"], config: presetConfig("smoke", { tests: ["objective"] }), seed: 3 });
    expect(await emitRunEvent(db(), run.id, "run.failed")).toBe(1);
    // The operator withdraws the allowance: every attempt is refused by the outbound policy, and it ends "failed".
    delete process.env.FOF_ALLOWED_ENDPOINTS;
    let now = Date.now();
    for (let i = 0; i < 6; i++) {
      await deliverDue(db(), { now });
      now += 4 ** i * 10_000 + 1_000;
    }
    const d = (await listDeliveries(db())).find((x) => x.event === "run.failed")!;
    expect(d.status).toBe("failed");
    expect(d.attempts).toBe(6);
    expect(d.tries[0].error).toMatch(/refused to connect/);
  });

  it("page the delivery log by key, newest first, each delivery once", async () => {
    const hook = await db().webhook.create({ data: { url: "https://paging.example.test/h", eventsJson: JSON.stringify(["run.completed"]), secret: "s" } });
    const t0 = Date.now();
    for (let i = 0; i < 5; i++)
      await db().webhookDelivery.create({
        data: {
          webhookId: hook.id,
          event: "run.completed",
          subject: `paging-${i}`,
          payloadJson: "{}",
          status: "delivered",
          createdAt: new Date(t0 + i * 1000),
        },
      });
    const seen: string[] = [];
    let page = await deliveryPage(db(), { webhookId: hook.id, limit: 2 });
    for (;;) {
      seen.push(...page.rows.map((d) => d.subject));
      if (!page.older) break;
      page = await deliveryPage(db(), { webhookId: hook.id, limit: 2, before: page.older });
    }
    expect(seen).toEqual(["paging-4", "paging-3", "paging-2", "paging-1", "paging-0"]);
  });
});
