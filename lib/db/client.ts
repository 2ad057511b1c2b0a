// The one Prisma client, on the database DATABASE_URL names: SQLite through the better-sqlite3 driver adapter (the
// embedded default) or PostgreSQL through the pg adapter (a team's shared database). Prisma 6.19, JS engine: no
// binaries. Both clients are generated from one schema (scripts/db-schemas.ts), so they have the same models and
// the rest of the code uses one type.
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "../../generated/prisma/client";
import { PrismaClient as PrismaClientPg } from "../../generated/prisma-pg/client";
import { databaseProviderOf, env } from "../env";
import { isContention } from "./retry";
import { immediateTransactions } from "./sqlite-transactions";
import { offloadCheckpoints, sqliteFile } from "./wal";

const g = globalThis as unknown as { __fofPrisma?: PrismaClient };

/**
 * SQL statements this process sent (FOF_SQL_STATS=1: counted through the driver adapter and printed as one JSON line
 * on stderr at exit, for the benchmarks). Transactions count their BEGIN and COMMIT.
 */
const sqlStats = { statements: 0, transactions: 0 };
/** Per statement text: how often and how long (FOF_SQL_STATS=2 also prints the 25 costliest at exit: what to index or cache). */
const sqlTimes = new Map<string, { n: number; ms: number }>();
type AdapterFactory = { connect(): Promise<unknown>; provider: string; adapterName: string };
function counted<T extends AdapterFactory>(factory: T): T {
  if (process.env.FOF_SQL_STATS !== "1" && process.env.FOF_SQL_STATS !== "2") return factory;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const wrap = (q: any) => {
    for (const m of ["queryRaw", "executeRaw"]) {
      const f = q[m].bind(q);
      q[m] = (...a: unknown[]) => {
        sqlStats.statements++;
        if (process.env.FOF_SQL_STATS !== "2") return f(...a);
        const t0 = performance.now();
        const sql = String((a[0] as { sql?: string })?.sql ?? "").slice(0, 240);
        return (f(...a) as Promise<unknown>).finally(() => {
          const e = sqlTimes.get(sql) ?? { n: 0, ms: 0 };
          e.n++;
          e.ms += performance.now() - t0;
          sqlTimes.set(sql, e);
        });
      };
    }
    if (q.startTransaction) {
      const start = q.startTransaction.bind(q);
      q.startTransaction = async (...a: unknown[]) => {
        sqlStats.transactions++;
        sqlStats.statements += 2; // BEGIN … COMMIT
        return wrap(await start(...a));
      };
    }
    return q;
  };
  const connect = factory.connect.bind(factory);
  factory.connect = async () => wrap(await connect());
  return factory;
}
if (process.env.FOF_SQL_STATS === "1" || process.env.FOF_SQL_STATS === "2")
  process.once("exit", () => {
    const costliest = [...sqlTimes].sort((x, y) => y[1].ms - x[1].ms).slice(0, 25);
    for (const [sql, e] of costliest) process.stderr.write(`${e.ms.toFixed(0).padStart(8)} ms ${String(e.n).padStart(7)} × ${sql.replace(/\s+/g, " ")}\n`);
    const usage = process.resourceUsage();
    const cpuMs = Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000);
    process.stderr.write(`${JSON.stringify({ sqlStats, maxRssMiB: Math.round(usage.maxRSS / 1024), cpuMs })}\n`);
  });

/**
 * SQLite: every connection waits up to FOF_DB_BUSY_TIMEOUT_MS for another writer (SQLite's busy timeout) instead of
 * failing at once with "database is locked"; what still fails is retried by its caller (the worker backs off).
 * PostgreSQL: a pool of FOF_DB_POOL_SIZE connections; lock waits are bounded by the same timeout, and so is the wait
 * for a connection (a new one, or a free one from the pool) — but never under PG_CONNECT_FLOOR_MS: opening a
 * connection on a loaded machine can take longer than a short lock patience is meant to allow.
 */
const PG_CONNECT_FLOOR_MS = 5_000;
/**
 * PostgreSQL's driver adapter (and with it pg), required only when a PostgreSQL client is made: an SQLite process —
 * the default, and every CLI command on one machine — never loads them (~70 ms of a command's start, npm run
 * bench:cli). Resolved from the project, as the server's bundles do for these external packages (next.config.mjs).
 */
function postgresAdapter(): typeof import("@prisma/adapter-pg") {
  return createRequire(path.join(process.cwd(), "package.json"))("@prisma/adapter-pg") as typeof import("@prisma/adapter-pg");
}

export function createPrismaClient(databaseUrl = env().databaseUrl): PrismaClient {
  const timeout = env().FOF_DB_BUSY_TIMEOUT_MS;
  // Interactive transactions queue behind SQLite's single connection (or the pool): give them the same patience.
  const transactionOptions = { maxWait: timeout, timeout: Math.max(timeout * 3, 30_000) };
  if (databaseProviderOf(databaseUrl) === "postgresql") {
    const { PrismaPg } = postgresAdapter();
    const adapter = counted(
      new PrismaPg({
        connectionString: databaseUrl,
        max: env().FOF_DB_POOL_SIZE,
        connectionTimeoutMillis: Math.max(timeout, PG_CONNECT_FLOOR_MS),
        options: `-c lock_timeout=${timeout}`,
      }),
    );
    // Same models, same delegates (generated from one schema): the PostgreSQL client is used through the one type.
    return new PrismaClientPg({ adapter, transactionOptions }) as unknown as PrismaClient;
  }
  // better-sqlite3 waits for a busy lock synchronously, on the calling thread: a long wait freezes the whole process
  // (every page, the health check). So SQLite's own wait stays short; the patience (FOF_DB_BUSY_TIMEOUT_MS) is spent
  // in asynchronous retries (withContentionRetry, the worker's backoff) or a 503 + Retry-After to an HTTP caller.
  const adapter = walNormal(
    immediateTransactions(
      patientStatements(counted(new PrismaBetterSQLite3({ url: databaseUrl, timeout: Math.min(timeout, SQLITE_SYNC_BUSY_MS) })), timeout),
      timeout,
    ),
    sqliteFile(databaseUrl),
  );
  return new PrismaClient({ adapter, transactionOptions });
}

/**
 * Single statements outside a transaction (most reads and writes) that meet a busy lock are tried again after an
 * asynchronous pause, for up to `patienceMs` in all: the event loop keeps serving while another writer finishes. A
 * statement that failed on a busy lock changed nothing, so trying it again is safe. Statements inside a transaction
 * are not retried one by one (the transaction fails whole, and its caller retries it or answers 503).
 */
function patientStatements<T extends AdapterFactory>(factory: T, patienceMs: number): T {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const conn = (await connect()) as Record<string, (...a: unknown[]) => Promise<unknown>>;
    for (const m of ["queryRaw", "executeRaw"]) {
      const f = conn[m].bind(conn);
      conn[m] = async (...a: unknown[]) => {
        const start = Date.now();
        for (let attempt = 0; ; attempt++) {
          try {
            return await f(...a);
          } catch (e) {
            if (!isContention(e) || Date.now() - start >= patienceMs) throw e;
            await new Promise((r) => setTimeout(r, Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random())));
          }
        }
      };
    }
    return conn;
  };
  return factory;
}

/**
 * SQLite in WAL mode with synchronous=NORMAL (the setting is per connection): a commit appends to the WAL without
 * waiting for the disk, which is synced at checkpoints. SQLite's default (FULL) synced every commit, on the event
 * loop (better-sqlite3 is synchronous): a 20-row transaction took 0.33–0.41 ms here against 0.13–0.14 ms, and a
 * server working a run commits ~800 times a minute. The database stays consistent whatever happens; what a power loss or an
 * OS crash (not a process crash) can lose is the last commits before it, and the engine's leases make those calls
 * again.
 */
function walNormal<T extends AdapterFactory>(factory: T, file: string): T {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const conn = (await connect()) as { executeScript(script: string): Promise<void> };
    await conn.executeScript("PRAGMA synchronous = NORMAL");
    // Checkpoints (the copy into the database file and its sync) move to a thread once this process writes much.
    offloadCheckpoints(file, (on) => conn.executeScript(`PRAGMA wal_autocheckpoint = ${on ? 1000 : 0}`));
    return conn;
  };
  return factory;
}

/** The longest SQLite may block this process's event loop waiting for another writer's lock, per statement. */
const SQLITE_SYNC_BUSY_MS = 25;

/** Lazily created so that importing lib/db never opens a file (the CLI's score command has no database). */
export function db(): PrismaClient {
  return (g.__fofPrisma ??= createPrismaClient());
}

export type { PrismaClient };
