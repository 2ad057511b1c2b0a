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
import { readFileSync, rmSync } from "node:fs";
import { build } from "esbuild";

const EXTERNAL = [
  "@prisma/*",
  "better-sqlite3",
  "pg",
  "pino",
  "onnxruntime-node",
  "onnxruntime-web",
  "sharp",
  "@jsquash/*",
  "@opentelemetry/*",
  "prom-client",
  "better-auth",
  "next",
  "react",
  "react-dom",
  "tsx",
];

// A large JSON file imported as an object literal is compiled by V8 as code when its chunk loads; as a string
// handed to JSON.parse it is scanned as one literal and parsed far faster (the suites' data is ~0.5 MB).
const jsonAsParse = {
  name: "json-as-parse",
  setup(b) {
    b.onLoad({ filter: /\.json$/ }, (args) => ({
      contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(readFileSync(args.path, "utf8"))))});`,
      loader: "js",
    }));
  },
};

// Prisma's runtime, imported from an ES module, resolves to its CommonJS build under Node (the "node" export
// condition): Node then lexes its 230 kB for named exports before running it. Its ES module build is the same
// runtime (one copy: nothing else in the bundle imports the other) and loads in about half the time (bench:cli).
const prismaRuntimeEsm = {
  name: "prisma-runtime-esm",
  setup(b) {
    b.onResolve({ filter: /^@prisma\/client\/runtime\/client$/ }, () => ({ path: "@prisma/client/runtime/client.mjs", external: true }));
  },
};

rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: ["bin/fof.ts"],
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  external: EXTERNAL,
  plugins: [jsonAsParse, prismaRuntimeEsm],
  // Bundled CommonJS packages call require() for Node's own modules; an ES module has no require of its own.
  banner: { js: 'import { createRequire as __fofCreateRequire } from "node:module"; const require = __fofCreateRequire(import.meta.url);' },
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  logLevel: "warning",
});
