// Starts the run engine inside the Next server (Node runtime only). Next also compiles this file for the Edge
// runtime: the Node half lives in its own module behind the NEXT_RUNTIME check, so the Edge build drops it whole
// (an early return would leave every Node module in the Edge graph, with a warning per module).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") await (await import("./instrumentation-node")).registerNode();
}
