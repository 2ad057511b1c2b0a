// `npm start`: migrate + seed the embedded SQLite database, then serve the production build.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { env } from "../lib/env";
import { migrateAndSeed } from "../lib/db/migrate";

async function main() {
  const { PORT, HOST, dataDir } = env();
  if (!existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) {
    process.stderr.write("No production build found: run `npm run build` first (the README's first command does).\n");
    process.exit(1);
  }
  await migrateAndSeed();
  process.stderr.write(`FACT-OR-FAIR workbench on http://${HOST}:${PORT} (data in ${dataDir})\n`);
  const next = path.join(process.cwd(), "node_modules", ".bin", "next");
  const child = spawn(next, ["start", "-p", String(PORT), "-H", HOST], { stdio: "inherit", env: process.env });
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
