// `npm run build:cli`: the `fof` CLI bundled for Node (dist/fof.mjs, what deploy/systemd/fof-worker@.service runs).
// Split into chunks at each command's dynamic import, so a command loads only its own code and the packages it
// uses: `fof --help` prints without loading the database client, the engine or onnxruntime.
import { rmSync } from "node:fs";
import { build } from "esbuild";

rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: ["bin/fof.ts"],
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  packages: "external",
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  logLevel: "warning",
});
