// SQLite's WAL is checkpointed by a thread of the process (lib/db/wal.ts), never inside a COMMIT on the event loop:
// once a client has written enough, its connections stop checkpointing and the thread copies the pages into the
// database file; a client that writes little never starts one.
import { execFile } from "node:child_process";
import { existsSync, statSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../lib/db/client";
import { offloadCheckpoints, walCheckpointer } from "../lib/db/wal";
import { testDataDir } from "./helpers/data-dir";

const dir = testDataDir("fof-wal-");
const clients: Array<ReturnType<typeof createPrismaClient>> = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.$disconnect()));
});

async function client(name: string) {
  const file = path.join(dir, name);
  const c = createPrismaClient(`file:${file}`);
  clients.push(c);
  await c.$executeRawUnsafe("PRAGMA journal_mode = WAL");
  await c.$executeRawUnsafe("CREATE TABLE IF NOT EXISTS scratch (id INTEGER PRIMARY KEY, body BLOB)");
  return { c, file };
}

async function write(c: ReturnType<typeof createPrismaClient>, rows: number) {
  for (let i = 0; i < rows; i++) await c.$executeRawUnsafe("INSERT INTO scratch (body) VALUES (randomblob(16384))");
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const autocheckpoint = async (c: ReturnType<typeof createPrismaClient>) =>
  Number((await c.$queryRawUnsafe<Array<{ wal_autocheckpoint: bigint | number }>>("PRAGMA wal_autocheckpoint"))[0].wal_autocheckpoint);

describe("WAL checkpoints off the event loop (SQLite)", () => {
  it("a client that has written a few MiB hands checkpoints to its thread, which copies the pages into the file", async () => {
    const { c, file } = await client("busy.db");
    expect(await autocheckpoint(c)).toBe(1000); // SQLite's own, until a thread runs
    await write(c, 300); // ~5 MiB through the WAL
    await until("the checkpoint thread running", () => walCheckpointer(file)?.state === "running");
    await until("the connection's own checkpoints off", async () => (await autocheckpoint(c)) === 0);
    const before = statSync(file).size;
    await write(c, 300);
    // The thread moves the new pages into the database file (the connection itself no longer does).
    await until("a checkpoint by the thread", () => (walCheckpointer(file)?.pages ?? 0) > 0);
    await until("the database file grown by the checkpoints", () => statSync(file).size > before);
    expect(Number((await c.$queryRawUnsafe<Array<{ n: bigint }>>("SELECT COUNT(*) AS n FROM scratch"))[0].n)).toBe(600);
  }, 60_000);

  it("a connection closed before the thread is ready is forgotten, never an uncaught error", async () => {
    // CI once failed on it: a test's client disconnected, then the thread's "ready" set its closed connection, whose
    // driver throws at once ("The database connection is not open") — an uncaught exception in the process.
    const { c, file } = await client("closed.db");
    let calls = 0;
    offloadCheckpoints(file, () => {
      calls++;
      throw new TypeError("The database connection is not open");
    });
    await write(c, 300);
    await until("the checkpoint thread running", () => walCheckpointer(file)?.state === "running");
    await until("the closed connection told once", () => calls === 1);
    // Forgotten: registering another connection does not reach the closed one again.
    offloadCheckpoints(file, async () => undefined);
    await new Promise((r) => setTimeout(r, 100));
    expect(calls).toBe(1);
  }, 60_000);

  it("a client that writes little starts no thread", async () => {
    const { c, file } = await client("quiet.db");
    await write(c, 5);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(walCheckpointer(file)?.state).toBe("waiting");
    expect(await autocheckpoint(c)).toBe(1000);
    expect(existsSync(`${file}-wal`)).toBe(true);
  });

  it("a process whose checkpoint thread runs still exits by itself when its work is done", async () => {
    // The thread once held its process open: `fof run … --label` finished its work and never exited.
    const file = path.join(dir, "child.db");
    const root = path.resolve(__dirname, "..");
    const script = path.join(dir, "child.mts");
    writeFileSync(
      script,
      `import { createPrismaClient } from ${JSON.stringify(path.join(root, "lib/db/client.ts"))};
      import { walCheckpointer } from ${JSON.stringify(path.join(root, "lib/db/wal.ts"))};
      const c = createPrismaClient(${JSON.stringify(`file:${file}`)});
      await c.$executeRawUnsafe("PRAGMA journal_mode = WAL");
      await c.$executeRawUnsafe("CREATE TABLE scratch (id INTEGER PRIMARY KEY, body BLOB)");
      for (let i = 0; i < 300; i++) await c.$executeRawUnsafe("INSERT INTO scratch (body) VALUES (randomblob(16384))");
      while (walCheckpointer(${JSON.stringify(file)})?.state !== "running") await new Promise((r) => setTimeout(r, 50));
      await c.$disconnect();
      console.log("done");\n`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script], { timeout: 30_000 });
    expect(stdout.trim()).toBe("done");
  }, 60_000);
});
