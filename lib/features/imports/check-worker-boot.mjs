// Starts lib/features/imports/check-worker.ts on a worker thread: loads it through tsx's ESM loader in this thread (a worker
// does not inherit the parent's --import hooks on every Node version), as `npm start` and the CLI load the app.
import { tsImport } from "tsx/esm/api";

await tsImport("./check-worker.ts", import.meta.url);
