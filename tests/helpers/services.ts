// Every service of the server's features in one namespace, for tests and benchmarks that drive a whole run (product
// code imports the feature module it needs: lib/features/<feature>/…).
export * from "../../lib/suites/fact-or-fair/config";
export * from "../../lib/suites/fact-or-fair/plan";
export * from "../../lib/providers/cost";
export * from "../../lib/suites/fact-or-fair/t2i-counts";
export * from "../../lib/core/run-status";
export * from "../../lib/features/runs/runs";
export * from "../../lib/features/runs/worker";
export * from "../../lib/features/results/run-results";
export * from "../../lib/features/runs/models";
export * from "../../lib/features/results/summary";
export * from "../../lib/features/runs/items";
export * from "../../lib/features/imports/store";
export * from "../../lib/features/labelling/leases";
export * from "../../lib/features/review/queue";
export * from "../../lib/features/review/detections";
export * from "../../lib/features/review/assignments";
export * from "../../lib/features/review/options";
export * from "../../lib/features/results/explore";
export * from "../../lib/features/results/intervals";
export * from "../../lib/features/runs/pinned";
export * from "../../lib/core/errors";
export * from "../../lib/features/review/report";
export * from "../../lib/features/runs/outcomes";
export { liveLabelWorkers } from "../../lib/features/runs/workers";
