// What a load balancer, a deploy script or an operator asks first: is the database reachable, are its migrations
// current, is any worker alive. Public (no session), so it says nothing about runs, hosts or users: counts only.
import type { PrismaClient } from "../../generated/prisma/client";
import { databaseProviderOf } from "../env";
import { pendingMigrations } from "../db/migrate";
import { WORKER_STALE_MS } from "../core/run-status";

export interface Health {
  status: "ok" | "degraded" | "down";
  database: { provider: "sqlite" | "postgresql"; reachable: boolean; latencyMs: number | null; error?: string };
  migrations: { current: boolean; pending: number } | null;
  workers: { alive: number; stale: number } | null;
}

const withTimeout = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref?.())]);

/** ok: database, migrations and ≥ 1 live worker; degraded: no live worker (runs wait); down: the database fails. */
export async function health(prisma: PrismaClient, databaseUrl: string): Promise<Health> {
  const provider = databaseProviderOf(databaseUrl);
  const t0 = performance.now();
  try {
    await withTimeout(prisma.$queryRawUnsafe("SELECT 1"), 3_000);
  } catch (e) {
    // The reason, without the URL (it may hold a password).
    const error = (e instanceof Error ? e.message : String(e)).replace(/postgres(ql)?:\/\/\S+/g, "postgres://…").slice(0, 200);
    return { status: "down", database: { provider, reachable: false, latencyMs: null, error }, migrations: null, workers: null };
  }
  const latencyMs = Math.round(performance.now() - t0);
  // Two counts (bounded work for a public endpoint, however many workers have come and gone).
  const live = { stoppedAt: null, heartbeatAt: { gte: new Date(Date.now() - WORKER_STALE_MS) } };
  const recent = { stoppedAt: null, heartbeatAt: { gte: new Date(Date.now() - 24 * 3600_000) } };
  const [pending, alive, seen] = await Promise.all([
    withTimeout(pendingMigrations(databaseUrl), 3_000),
    prisma.workerStatus.count({ where: live }),
    prisma.workerStatus.count({ where: recent }),
  ]);
  const migrations = { current: pending.length === 0, pending: pending.length };
  return {
    status: !migrations.current ? "down" : alive === 0 ? "degraded" : "ok",
    database: { provider, reachable: true, latencyMs },
    migrations,
    workers: { alive, stale: seen - alive },
  };
}
