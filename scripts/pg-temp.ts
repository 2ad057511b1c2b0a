// A throwaway PostgreSQL cluster on loopback for tests, benchmarks and the migration generator: initdb in a temp
// directory, started with pg_ctl on a free port, trust authentication for local connections only, removed on stop.
// Uses Debian's postgresql package (/usr/lib/postgresql/<version>/bin) or binaries on PATH; as root it runs them as
// the `postgres` (or `nobody`) user, since PostgreSQL refuses to run as root.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** The directory holding initdb / pg_ctl, or null when PostgreSQL is not installed. */
export function postgresBin(): string | null {
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(path.join(debian, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length) return path.join(debian, versions[0], "bin");
  }
  const which = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  return which.status === 0 && which.stdout.trim() ? path.dirname(which.stdout.trim()) : null;
}

function freePortSync(): number {
  // A child process picks a free port (synchronously, so callers stay simple).
  const out = execFileSync(
    process.execPath,
    ["-e", "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"],
    { encoding: "utf8" },
  );
  return Number(out.trim());
}

export interface TempPostgres {
  port: number;
  url(database: string): string;
  createDatabase(name: string): void;
  stop(): void;
}

export function startTempPostgres(): TempPostgres {
  const bin = postgresBin();
  if (!bin) throw new Error("PostgreSQL is not installed (Debian: apt install postgresql)");
  const dir = mkdtempSync(path.join(tmpdir(), "fof-pg-"));
  chmodSync(dir, 0o777);
  const asUser = process.getuid?.() === 0 ? ["runuser", "-u", spawnSync("id", ["postgres"]).status === 0 ? "postgres" : "nobody", "--"] : [];
  const run = (cmd: string, args: string[]) => {
    const [exe, ...rest] = [...asUser, path.join(bin, cmd), ...args];
    const r = spawnSync(exe, rest, { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
  };
  run("initdb", ["-D", path.join(dir, "data"), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = freePortSync();
  run("pg_ctl", [
    "-D",
    path.join(dir, "data"),
    "-l",
    path.join(dir, "log"),
    "-w",
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    "start",
  ]);
  const url = (db: string) => `postgresql://postgres@127.0.0.1:${port}/${db}`;
  return {
    port,
    url,
    createDatabase(name) {
      if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad database name ${name}`);
      const r = spawnSync("psql", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres", "-c", `CREATE DATABASE ${name}`], {
        encoding: "utf8",
      });
      if (r.status !== 0) throw new Error(`CREATE DATABASE ${name}: ${r.stderr}`);
    },
    stop() {
      try {
        run("pg_ctl", ["-D", path.join(dir, "data"), "-m", "immediate", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
