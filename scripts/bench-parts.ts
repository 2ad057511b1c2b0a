// Simulation benches split their configurations over one process per core: the script runs itself with
// `--part i/n`, each part prints one JSON line per configuration it ran, and the parent gathers the lines.
import { spawn } from "node:child_process";

/** Runs this script (or `script`) `parts` times with `--part i/parts` and returns every JSON line the parts printed, parsed. */
export async function runInParts<T>(parts = 2, script = process.argv[1]): Promise<T[]> {
  const outputs = await Promise.all(
    Array.from({ length: parts }, (_, i) => {
      const child = spawn(process.execPath, [...process.execArgv, script, "--part", `${i}/${parts}`], { stdio: ["ignore", "pipe", "inherit"] });
      let text = "";
      child.stdout.on("data", (d: Buffer) => (text += d));
      return new Promise<string>((resolve, reject) =>
        child.on("close", (code) => (code === 0 ? resolve(text) : reject(new Error(`part ${i} exited ${code}`)))),
      );
    }),
  );
  return outputs
    .flatMap((t) => t.trim().split("\n"))
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

/** This process's share (`--part i/n`), or null for the parent. */
export function partOf(): { i: number; n: number } | null {
  const at = process.argv.indexOf("--part");
  if (at < 0) return null;
  const [i, n] = process.argv[at + 1].split("/").map(Number);
  return { i, n };
}
