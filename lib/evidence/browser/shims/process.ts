// `process` for the browser verifier's bundle (injected by scripts/build-verifier.mjs): no environment, so every
// setting takes its default — the defaults the server's scoring ran with unless a run pinned its own.
export const process = {
  env: {} as Record<string, string | undefined>,
  platform: "browser",
  version: "",
  versions: {} as Record<string, string>,
  cwd: () => "/",
  on: () => process,
  once: () => process,
  off: () => process,
  emitWarning: () => {},
  nextTick: (fn: (...a: unknown[]) => void, ...args: unknown[]) => queueMicrotask(() => fn(...args)),
  hrtime: Object.assign(() => [0, 0], { bigint: () => BigInt(Math.round(performance.now() * 1e6)) }),
  memoryUsage: () => ({ rss: 0, heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0 }),
  stdout: { write: () => true },
  stderr: { write: () => true },
  exit: (code?: number) => {
    throw new Error(`process.exit(${code}) in the browser verifier`);
  },
};
