// A `fof` command run as a long-lived child process in a test (`fof worker`, `fof label`): one Node process (no npm or
// tsx wrapper, so signals reach it), its output kept (the last 32 KB) for the failure message, and every wait bounded
// and raced against the child's exit. A child that dies early or never stops fails the test at once with what it
// printed, rather than leaving the test to its time limit with nothing to go on.
import { type ChildProcess, spawn } from "node:child_process";

const TAIL = 32 * 1024;

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** what it printed last (stdout and stderr together) */
  output(): string;
  /** Polls `ready` every `everyMs` until it holds; throws, with the child's output, after `ms` or if the child exits. */
  until(what: string, ready: () => Promise<boolean>, ms: number, everyMs?: number): Promise<void>;
  /** SIGTERM (or `signal`), then waits up to `ms` for the exit (SIGKILL after that, and throws); resolves to the exit code. */
  stop(ms?: number, signal?: NodeJS.Signals): Promise<number | null>;
}

export function startFof(args: string[], env: NodeJS.ProcessEnv): ServiceProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "bin/fof.ts", ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let tail = "";
  const keep = (d: Buffer) => {
    tail = (tail + d.toString("utf8")).slice(-TAIL);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  // Registered at once, so an exit that happens before anyone waits for it is not missed.
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exited = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exit = { code, signal };
      resolve();
    }),
  );
  const describe = () =>
    `\`fof ${args.join(" ")}\` ${exit ? `exited (code ${exit.code}, signal ${exit.signal})` : "is still running"}; its last output:\n${tail || "(none)"}`;
  return {
    child,
    output: () => tail,
    async until(what, ready, ms, everyMs = 100) {
      const deadline = Date.now() + ms;
      for (;;) {
        if (await ready()) return;
        if (exit) throw new Error(`${what}: never, ${describe()}`);
        if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms, ${describe()}`);
        await Promise.race([exited, new Promise((r) => setTimeout(r, everyMs))]);
      }
    },
    async stop(ms = 30_000, signal: NodeJS.Signals = "SIGTERM") {
      if (!exit) {
        child.kill(signal);
        let timer: NodeJS.Timeout | undefined;
        const late = await Promise.race([exited.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), ms)))]);
        clearTimeout(timer);
        if (late) {
          child.kill("SIGKILL");
          await exited;
          throw new Error(`did not stop within ${ms} ms of SIGTERM: ${describe()}`);
        }
      }
      return exit!.code;
    },
  };
}
