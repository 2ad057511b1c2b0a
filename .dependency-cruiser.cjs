// Dependency rules (docs/architecture.md), checked by `npm test`: no cycles, and every arrow between layers points
// down — pages and components → server features → domain → core. Existing exceptions are listed, one by one, in
// .dependency-cruiser-known-violations.json (to be emptied); any new one fails.
const CORE = "^lib/(env|log|paths)\\.ts$|^lib/(core|net|validation|client)/";
const DOMAIN = "^lib/(benchmark|metrics|interchange|published)/";
const FEATURES = "^lib/(engine|suites|auth|providers|images|review|results|faces|db|server)/";

module.exports = {
  forbidden: [
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
      comment: "the benchmark, metrics, interchange and published rows are pure: no database, no server features",
      from: { path: DOMAIN },
      to: { path: FEATURES },
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
