// The project's root folder (where package.json of the workbench is): files shipped with it — the synthetic model's
// default photos beside it in ../shared, data/ — resolve from here, never from the working directory a command was
// started in. Found by walking up from this module (source, the Next bundle or dist/ all sit inside the project),
// then from the working directory.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const NAME = "fact-or-fair-workbench";
let cached: string | null = null;

function walkUp(from: string): string | null {
  let dir = from;
  for (let i = 0; i < 12; i++) {
    const pkg = path.join(dir, "package.json");
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === NAME) return dir;
      } catch {
        // not a readable package.json: keep walking
      }
    }
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
  return null;
}

export function projectRoot(): string {
  if (cached) return cached;
  let here: string | null = null;
  try {
    here = path.dirname(fileURLToPath(import.meta.url));
  } catch {
    here = null;
  }
  cached = (here && walkUp(here)) ?? walkUp(process.cwd()) ?? process.cwd();
  return cached;
}
