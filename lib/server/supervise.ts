// A child process kept running for as long as its parent wants it: `npm start`'s worker (scripts/start.ts). Started
// again whenever it ends unexpectedly — 2 s, doubling to a minute while it keeps failing, back to 2 s once it has
// stayed up a minute — so a server never sits on "running" runs with no worker. Stopped once, with SIGTERM: the worker
// handles each of SIGINT and SIGTERM once (a terminal's Ctrl-C reaches it directly too), and a second signal of the
// same kind would kill it in the middle of its last writes.
import { spawn, type ChildProcess } from "node:child_process";

export interface SuperviseOptions {
  /** node's arguments (the script and its own) */
  args: string[];
  env: NodeJS.ProcessEnv;
  log: (message: string) => void;
  /** the first restart's delay; it doubles up to maxDelayMs while the child keeps ending */
  delayMs?: number;
  maxDelayMs?: number;
  /** a child up this long is healthy again: its next restart waits delayMs */
  healthyAfterMs?: number;
  /** how long a stopping child may finish its work before SIGKILL */
  graceMs?: number;
}

export interface Supervised {
  /** the running child's pid (none between a child's end and its restart) */
  pid(): number | undefined;
  /** SIGTERM once; resolves when the child has exited (SIGKILL after graceMs). Idempotent. */
  stop(): Promise<void>;
}

export function supervise(name: string, o: SuperviseOptions): Supervised {
  const first = o.delayMs ?? 2_000;
  const max = o.maxDelayMs ?? 60_000;
  let delay = first;
  let child: ChildProcess | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped: Promise<void> | null = null;
  const launch = () => {
    timer = null;
    const started = Date.now();
    const c = spawn(process.execPath, o.args, { stdio: "inherit", env: o.env });
    child = c;
    o.log(`${name} process ${c.pid} started`);
    c.on("exit", (code, signal) => {
      child = null;
      if (stopped) return;
      if (Date.now() - started > (o.healthyAfterMs ?? 60_000)) delay = first;
      o.log(`${name} process ${c.pid} ended (${signal ?? `exit ${code}`}); starting another in ${delay / 1000} s`);
      timer = setTimeout(launch, delay);
      delay = Math.min(delay * 2, max);
    });
  };
  launch();
  return {
    pid: () => child?.pid,
    stop() {
      if (timer) clearTimeout(timer);
      return (stopped ??= stopChild(child, o.graceMs ?? 30_000));
    },
  };
}

function stopChild(child: ChildProcess | null, graceMs: number): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
