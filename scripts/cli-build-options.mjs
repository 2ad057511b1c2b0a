// The esbuild options of the `fof` CLI bundle (scripts/build-cli.mjs, which says why each is so), shared with the
// test that runs code bundled the same way (tests/cli-bundle.test.ts): a bundle can compute differently from the
// sources it was built from.
import { readFileSync } from "node:fs";

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
// handed to JSON.parse it is scanned as one literal and parsed far faster (the suites' data is ~0.5 MB). As
// CommonJS, not `export default`: a package that require()s a JSON table (stdlib's factorials, under Student's t
// quantile) must get the table itself, not a namespace object — with `export default` every t quantile of the bundled
// worker was NaN. An ES module's default import of it still gets the value (esbuild's interop).
const jsonAsParse = {
  name: "json-as-parse",
  setup(b) {
    b.onLoad({ filter: /\.json$/ }, (args) => ({
      contents: `module.exports = JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(readFileSync(args.path, "utf8"))))});`,
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

/** everything but the entry points and the output folder */
export const cliBuildOptions = {
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  external: EXTERNAL,
  plugins: [jsonAsParse, prismaRuntimeEsm],
  // Bundled CommonJS packages call require() for Node's own modules; an ES module has no require of its own.
  banner: { js: 'import { createRequire as __fofCreateRequire } from "node:module"; const require = __fofCreateRequire(import.meta.url);' },
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  logLevel: "warning",
};
