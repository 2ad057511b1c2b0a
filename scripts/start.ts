// `npm start`: migrate + seed the embedded SQLite database, then serve the production build.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { env } from "../lib/env";
import { migrateAndSeed } from "../lib/db/migrate";
import { CLIENT_SECRET_ENV, parseTrustedProxies } from "../lib/auth/client-address";

async function main() {
  const { PORT, HOST, dataDir } = env();
  if (!existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) {
    process.stderr.write("No production build found: run `npm run build` first (the README's first command does).\n");
    process.exit(1);
  }
  parseTrustedProxies(process.env.FOF_TRUSTED_PROXIES); // a typo stops the start, not the first request
  await migrateAndSeed();
  process.stderr.write(`FACT-OR-FAIR workbench on http://${HOST}:${PORT} (data in ${dataDir})\n`);
  // Next.js behind our own node:http server (scripts/serve.ts), which decides the client's address from the socket.
  // A fresh secret per start signs what it tells the app about each request.
  const childEnv = { ...process.env, NODE_ENV: "production" as const, PORT: String(PORT), HOST, [CLIENT_SECRET_ENV]: randomBytes(24).toString("base64url") };
  const child = spawn(process.execPath, ["--import", "tsx", path.join(process.cwd(), "scripts", "serve.ts")], { stdio: "inherit", env: childEnv });
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
