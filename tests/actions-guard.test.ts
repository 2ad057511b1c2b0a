// Every server action makes a role decision: it calls actionGuard(permission) before doing anything, or it is one of
// the few that are public by design (first-run setup and one-time links, each checking its own credential).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const PUBLIC_ACTIONS = new Set([
  // creates the first admin only while no account exists, only from loopback or with the logged setup token
  "app/setup/actions.ts#setupAdmin",
  // the one-time invitation / reset link is the credential
  "app/join/[token]/actions.ts#redeemLink",
]);

function actionFiles(dir: string, out: string[] = []): string[] {
  for (const f of readdirSync(dir)) {
    const p = path.join(dir, f);
    if (statSync(p).isDirectory()) actionFiles(p, out);
    else if (f === "actions.ts") out.push(p);
  }
  return out;
}

describe("server actions", () => {
  it("every exported action decides who may call it before it does anything", () => {
    const files = actionFiles(path.join(process.cwd(), "app"));
    expect(files.length).toBeGreaterThanOrEqual(5);
    let checked = 0;
    for (const file of files) {
      const rel = path.relative(process.cwd(), file).split(path.sep).join("/");
      const text = readFileSync(file, "utf8");
      const exports = [...text.matchAll(/export async function (\w+)\s*\(/g)];
      for (const m of exports) {
        const name = m[1];
        checked++;
        if (PUBLIC_ACTIONS.has(`${rel}#${name}`)) continue;
        // The function's first statements (before any other await) must be the guard.
        const body = text.slice(m.index! + m[0].length, m.index! + m[0].length + 1200);
        const firstAwait = body.indexOf("await ");
        expect(firstAwait, `${rel}#${name} awaits nothing`).toBeGreaterThanOrEqual(0);
        expect(body.slice(firstAwait, firstAwait + 40), `${rel}#${name} must call actionGuard first`).toMatch(
          /^await actionGuard\("([a-z]+\.[a-z]+|signed-in)"\)/,
        );
      }
      // Nothing but functions is exported from an actions file (Next exposes every export as an endpoint).
      expect(text.match(/export (const|let|var) /g) ?? [], rel).toEqual([]);
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });
});
