// Structured logs: one JSON object per line on stderr (stdout stays the CLI's output), with the host, pid and — for
// HTTP requests — a request id that is also sent back as x-request-id, so one request can be followed from the
// browser's error message to the server's log line. Secrets are redacted by key.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import pino from "pino";
import { env } from "./env";

const level = env().FOF_LOG_LEVEL ?? (process.env.VITEST ? "silent" : "info");

export const logger = pino(
  {
    level,
    base: { host: hostname(), pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ["password", "apiKey", "token", "authorization", "cookie", "*.password", "*.apiKey", "*.token", "headers.authorization", "headers.cookie"],
      censor: "[redacted]",
    },
  },
  pino.destination({ fd: 2, sync: true }),
);

/** The caller's request id when it is a sane token (a proxy's), else a new one. */
export function requestIdOf(req: Request): string {
  const given = req.headers.get("x-request-id");
  return given && /^[A-Za-z0-9._:-]{8,100}$/.test(given) ? given : randomUUID();
}
