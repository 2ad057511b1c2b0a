// Runs the emulator on its own: `tsx tests/emulator/cli.ts [port] [scripts.json]` (used by the e2e journey).
import { readFileSync } from "node:fs";
import { startEmulator, type ModelScript } from "./server";

const port = Number(process.argv[2] ?? 0);
const scripts: Record<string, ModelScript> = process.argv[3] ? JSON.parse(readFileSync(process.argv[3], "utf8")) : {};
startEmulator(scripts, port).then((e) => {
  process.stdout.write(`emulator listening on ${e.url}\n`);
  const stop = () => e.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
});
