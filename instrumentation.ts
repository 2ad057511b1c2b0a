// Starts the run engine inside the Next server (Node runtime only). FOF_WORKER=off leaves runs to `fof worker`.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("./lib/env");
  if (env().FOF_WORKER === "off") return;
  const { startServerWorker } = await import("./lib/engine/server-worker");
  startServerWorker();
}
