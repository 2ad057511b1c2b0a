// Structured logs: one JSON object per line on stderr (stdout stays the CLI's output), with the host, pid and — for
// HTTP requests — a request id that is also sent back as x-request-id, so one request can be followed from the
// browser's error message to the server's log line. Secrets are redacted by key.
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { hostname } from "node:os";
import path from "node:path";
import type { Logger } from "pino";
import { env } from "./env";

// pino is required on first use, not imported: most CLI commands never log, and loading it (CommonJS, a dozen files)
// was ~20 ms of every command's start, a run's first provider call included (npm run bench:cli).
function build(): Logger {
  const pino = createRequire(path.join(process.cwd(), "package.json"))("pino") as typeof import("pino");
  return pino(
    {
      level: env().FOF_LOG_LEVEL ?? (process.env.VITEST ? "silent" : "info"),
      base: { host: hostname(), pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ["password", "apiKey", "token", "authorization", "cookie", "*.password", "*.apiKey", "*.token", "headers.authorization", "headers.cookie"],
        censor: "[redacted]",
      },
    },
    pino.destination({ fd: 2, sync: true }),
  );
}

let built: Logger | undefined;
/** The process's logger (created on first use); its methods are bound, so `const log = logger.info` works too. */
export const logger: Logger = new Proxy({} as Logger, {
  get(_target, key) {
    const real = (built ??= build());
    const value: unknown = Reflect.get(real, key, real);
    return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(real) : value;
  },
});

/** The caller's request id when it is a sane token (a proxy's), else a new one. */
export function requestIdOf(req: Request): string {
  const given = req.headers.get("x-request-id");
  return given && /^[A-Za-z0-9._:-]{8,100}$/.test(given) ? given : randomUUID();
}
