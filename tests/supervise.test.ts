// `npm start`'s worker is a supervised child (lib/server/supervise.ts): started again when it ends, stopped once with
// SIGTERM (a second signal would kill `fof worker` mid-write), killed only after its grace period.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { supervise } from "../lib/server/supervise";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, ok: () => boolean, ms = 10_000) {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(20)) if (ok()) return;
  throw new Error(`timed out waiting for ${what}`);
}

describe("supervise", () => {
  it("starts a child again whenever it ends, waiting longer each time it keeps failing", async () => {
    const lines: string[] = [];
    const s = supervise("w", { args: ["-e", "process.exit(3)"], env: process.env, log: (m) => lines.push(m), delayMs: 50, maxDelayMs: 200 });
    await until("four restarts", () => lines.filter((l) => l.includes("ended (exit 3)")).length >= 4);
    await s.stop();
    const waits = lines.filter((l) => l.includes("ended")).map((l) => /in ([\d.]+) s/.exec(l)![1]);
    expect(waits.slice(0, 4)).toEqual(["0.05", "0.1", "0.2", "0.2"]);
    const started = lines.filter((l) => l.includes("started")).length;
    await sleep(400);
    // Stopped: no child is started after stop().
    expect(lines.filter((l) => l.includes("started")).length).toBe(started);
  });

  it("stops its child with one SIGTERM and resolves once the child has exited", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fof-supervise-"));
    const out = path.join(dir, "signals");
    // Counts the signals it gets, and finishes its "last writes" 200 ms after the first before exiting.
    const script = `const fs=require("fs");let n=0;process.on("SIGTERM",()=>{n++;fs.writeFileSync(${JSON.stringify(out)},String(n));if(n===1)setTimeout(()=>process.exit(0),200)});fs.writeFileSync(${JSON.stringify(out)},"ready");setInterval(()=>{},1000)`;
    const lines: string[] = [];
    const s = supervise("w", { args: ["-e", script], env: process.env, log: (m) => lines.push(m) });
    await until("the child to be ready", () => existsSync(out) && readFileSync(out, "utf8") === "ready");
    const pid = s.pid();
    expect(pid).toBeGreaterThan(0);
    const t = Date.now();
    const a = s.stop();
    const b = s.stop();
    expect(b).toBe(a);
    await a;
    expect(Date.now() - t).toBeGreaterThanOrEqual(150);
    expect(readFileSync(out, "utf8")).toBe("1");
    expect(() => process.kill(pid!, 0)).toThrow();
    expect(lines.some((l) => l.includes("ended"))).toBe(false);
  });

  it("kills a child that does not stop within its grace period", async () => {
    const ready = path.join(mkdtempSync(path.join(tmpdir(), "fof-supervise-")), "ready");
    const script = `process.on("SIGTERM",()=>{});require("fs").writeFileSync(${JSON.stringify(ready)},"");setInterval(()=>{},1000)`;
    const s = supervise("w", { args: ["-e", script], env: process.env, log: () => {}, graceMs: 300 });
    await until("its handler to be installed", () => existsSync(ready));
    const pid = s.pid()!;
    const t = Date.now();
    await s.stop();
    expect(Date.now() - t).toBeGreaterThanOrEqual(250);
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
