// `npm run build:verifier` (run by postinstall and `npm run build`): the browser verifier's re-scorer,
// public/verifier/rescore.js — the workbench's own scoring code (lib/features/evidence/scores.ts and everything it
// calls) bundled for a Web Worker, on a Prisma client generated for edge runtimes (no Node APIs; its query compiler
// WASM inlined) over sql.js (SQLite in WebAssembly, public/verifier/sql-wasm.wasm) with the committed migrations
// inlined. The server-only modules that scoring code imports for other paths (logging, metrics, content loading
// from files) get stand-ins that fail loudly if re-scoring ever calls them (lib/evidence/browser/shims).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
// --out DIR: elsewhere (a test builds its own copy of what the browser runs)
const outArg = process.argv.indexOf("--out");
const out = outArg > 0 ? path.resolve(process.argv[outArg + 1]) : path.join(root, "public/verifier");
// (a build elsewhere generates its own client too: two builds at once never write the same files)
const edgeClient = outArg > 0 ? path.join(out, ".prisma-edge") : path.join(root, "generated/prisma-edge");
const shims = path.join(root, "lib/evidence/browser/shims");

// 1. The Prisma client for edge runtimes, from the one schema (only the generator's runtime and output differ).
const tmp = mkdtempSync(path.join(os.tmpdir(), "fof-verifier-"));
try {
  const schema = readFileSync(path.join(root, "prisma/schema.prisma"), "utf8").replace(
    /output\s*=\s*"\.\.\/generated\/prisma"/,
    `output = ${JSON.stringify(edgeClient)}\n  runtime = "vercel-edge"`,
  );
  if (!schema.includes('runtime = "vercel-edge"')) throw new Error("prisma/schema.prisma changed shape: could not rewrite its generator");
  writeFileSync(path.join(tmp, "schema.prisma"), schema);
  execFileSync(path.join(root, "node_modules/.bin/prisma"), ["generate", "--schema", path.join(tmp, "schema.prisma")], { cwd: root, stdio: "pipe" });
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

// 2. The migrations, in order, as one module: the scratch database gets the same schema as `fof verify`'s.
const migrationsDir = path.join(root, "prisma/migrations");
const migrations = readdirSync(migrationsDir)
  .filter((d) => statSync(path.join(migrationsDir, d)).isDirectory())
  .sort()
  .map((d) => readFileSync(path.join(migrationsDir, d, "migration.sql"), "utf8"));

const NODE_SHIMS = {
  "node:crypto": "crypto.ts",
  crypto: "crypto.ts",
  "node:path": "path.ts",
  path: "path.ts",
  "node:async_hooks": "async-hooks.ts",
  "node:events": "events.ts",
  "node:buffer": "buffer.ts",
};
const browserOnly = {
  name: "fof-verifier",
  setup(b) {
    b.onResolve({ filter: /generated\/prisma\/client(\.ts)?$/ }, () => ({ path: path.join(edgeClient, "client.ts") }));
    b.onResolve({ filter: /^fof:migrations$/ }, () => ({ path: "migrations", namespace: "fof" }));
    b.onLoad({ filter: /.*/, namespace: "fof" }, () => ({ contents: `export default ${JSON.stringify(migrations)};`, loader: "js" }));
    b.onResolve({ filter: /\.wasm\?module$/ }, (a) => ({ path: path.join(a.resolveDir, a.path.replace(/\?module$/, "")), namespace: "wasm-module" }));
    b.onLoad({ filter: /.*/, namespace: "wasm-module" }, (a) => ({
      contents: `const b = Uint8Array.from(atob(${JSON.stringify(readFileSync(a.path).toString("base64"))}), (c) => c.charCodeAt(0)); export default new WebAssembly.Module(b);`,
      loader: "js",
    }));
    b.onResolve({ filter: /^(node:)?[a-z_]+$/ }, (a) => {
      if (NODE_SHIMS[a.path]) return { path: path.join(shims, NODE_SHIMS[a.path]) };
      if (a.path.startsWith("node:") || ["fs", "os", "module", "url", "process", "child_process", "worker_threads"].includes(a.path))
        return { path: path.join(shims, "unavailable.cjs") };
      return undefined;
    });
  },
};

mkdirSync(out, { recursive: true });
const result = await build({
  entryPoints: { rescore: path.join(root, "lib/features/evidence/browser-entry.ts") },
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  outdir: out,
  minify: process.env.FOF_VERIFIER_DEBUG !== "1",
  sourcemap: false,
  metafile: true,
  logLevel: "warning",
  define: { "process.env.NODE_ENV": '"production"' },
  alias: { "@": root },
  nodePaths: [path.join(root, "node_modules")],
  inject: ["process.ts", "buffer.ts", "globals.ts"].map((f) => path.join(shims, f)),
  plugins: [browserOnly],
});
copyFileSync(path.join(root, "node_modules/sql.js/dist/sql-wasm.wasm"), path.join(out, "sql-wasm.wasm"));
const bytes = Object.values(result.metafile.outputs).reduce((s, o) => s + o.bytes, 0);
process.stdout.write(`[build-verifier] ${path.relative(root, out) || out}/rescore.js ${(bytes / 1024 ** 2).toFixed(1)} MiB, sql-wasm.wasm\n`);
