// `npm run build:cli`: the `fof` CLI bundled for Node (dist/fof.mjs, what deploy/systemd/fof-worker@.service runs).
// Split into chunks at each command's dynamic import, so a command loads only its own code and the packages it
// uses: `fof --help` prints without loading the database client, the engine or onnxruntime.
//
// Pure-JavaScript packages are bundled in: Node's module loader resolves, reads, format-detects and (for CommonJS)
// lexes every file of an external package one by one, and that bookkeeping, more than their code, was ~0.2 s of a
// run command's loading (openai and zod alone are hundreds of files; `npm run bench:cli` measures the start). What
// stays external is what must be loaded from its own files: native addons, Prisma's generated runtime and its WASM,
// the packages that start threads or read their own paths (pino's transports, onnxruntime, sharp, the WebP
// decoder), and the server-side stacks a command reaches only through a dynamic import or a require on first use
// (Next.js, React, better-auth, OpenTelemetry, prom-client).
import { rmSync } from "node:fs";
import { build } from "esbuild";
import { cliBuildOptions } from "./cli-build-options.mjs";

rmSync("dist", { recursive: true, force: true });
await build({ ...cliBuildOptions, entryPoints: ["bin/fof.ts"], outdir: "dist" });
