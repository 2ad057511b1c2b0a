// Dependency rules (docs/architecture.md), checked by `npm test`: no cycles, and every arrow between folders points
// down the layer order below — pages and components → server features → suites → domain → core.
const CORE = "^lib/(env|log|paths)\\.ts$|^lib/(core|net|validation|client)/";
const DOMAIN = "^lib/(benchmark|content|metrics|interchange|published|evidence|explanations)/";
const FEATURES = "^lib/(features|suites|auth|providers|images|review|results|faces|db|server)/";

// The folders of lib/, lowest first: a module may import its own folder and any folder before it, never one after.
// One folder per step, so two folders can never lean on each other (a folder-level cycle) even without a module cycle.
const LAYERS = [
  ["core", CORE],
  ["benchmark", "^lib/benchmark/"],
  ["metrics", "^lib/metrics/"],
  // what an explanation's reading is (tags, spans, the judge's rubric) and its tables: pure, read by evidence and providers
  ["explanations", "^lib/explanations/"],
  ["content", "^lib/content/"],
  ["interchange", "^lib/interchange/"],
  ["published", "^lib/published/"],
  ["evidence", "^lib/evidence/"],
  ["images", "^lib/images/"],
  ["providers", "^lib/providers/"],
  ["db", "^lib/db/"],
  ["faces", "^lib/faces/"],
  ["review", "^lib/review/"],
  ["results", "^lib/results/"],
  ["auth", "^lib/auth/"],
  ["suites", "^lib/suites/"],
  // signing and the log: below every feature that launches a run (an import is a launch too)
  ["features/ledger", "^lib/features/ledger/"],
  ["features/webhooks", "^lib/features/webhooks/"],
  ["features/content", "^lib/features/content/"],
  ["features/imports", "^lib/features/imports/"],
  ["features/labelling", "^lib/features/labelling/"],
  // explanation review and judge passes: below the run engine, whose workers take up judge passes
  ["features/explanations", "^lib/features/explanations/"],
  ["features/runs", "^lib/features/runs/"],
  ["features/results", "^lib/features/results/"],
  ["features/review", "^lib/features/review/"],
  ["features/evidence", "^lib/features/evidence/"],
  ["server", "^lib/server/"],
];
const layerRules = LAYERS.slice(0, -1).map(([name, from], i) => ({
  name: `layers: ${name}`,
  severity: "error",
  comment: `${name} may import only the layers before it (${
    LAYERS.slice(0, i)
      .map(([n]) => n)
      .join(", ") || "none"
  })`,
  from: { path: from },
  to: {
    path: LAYERS.slice(i + 1)
      .map(([, p]) => `(${p})`)
      .join("|"),
  },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    { name: "no-circular", severity: "error", comment: "a cycle makes a layer of its modules: split the shared part out", from: {}, to: { circular: true } },
    {
      name: "core-knows-no-feature",
      severity: "error",
      comment: "core (env, log, paths, net, validation) is used by everything and uses nothing of ours",
      from: { path: CORE },
      to: { path: "^lib/", pathNot: CORE },
    },
    {
      name: "domain-is-pure",
      severity: "error",
      comment: "the benchmark, content sets, metrics, interchange and published rows are pure: no database, no server features",
      from: { path: DOMAIN },
      to: { path: FEATURES },
    },
    {
      name: "every-lib-folder-has-a-layer",
      severity: "error",
      comment: "a new folder of lib/ takes its place in LAYERS (above) before anything imports it",
      from: {},
      to: { path: "^lib/", pathNot: LAYERS.map(([, p]) => `(${p})`).join("|") },
    },
    {
      name: "lib-knows-no-ui",
      severity: "error",
      comment: "lib/ is imported by pages, the CLI and tests; it never imports a page or a component",
      from: { path: "^lib/" },
      to: { path: "^(app|components)/" },
    },
    {
      name: "components-not-pages",
      severity: "error",
      comment: "components are used by pages, not the other way round (server actions excepted)",
      from: { path: "^components/" },
      to: { path: "^app/", pathNot: "^app/.+/actions\\.ts$" },
    },
    { name: "no-test-code-in-product", severity: "error", from: { path: "^(app|components|lib|bin)/" }, to: { path: "^(tests|e2e)/" } },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|\\.next|dist|generated|public|storage|test-results)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
  },
};
