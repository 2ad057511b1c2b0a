// Starts lib/server/offload-thread.ts on a worker thread: loads it through tsx's ESM loader in this thread (a worker
// does not inherit the parent's --import hooks on every Node version), as `npm start` and the CLI load the app.
import { tsImport } from "tsx/esm/api";

await tsImport("./offload-thread.ts", import.meta.url);
