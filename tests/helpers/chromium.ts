// The Chromium the tests drive (e2e journeys and the browser verifier's differential tests): CHROMIUM_PATH, else
// Debian's chromium-headless-shell when installed, else Debian's chromium. The headless shell is the same engine
// without the browser's own UI layers: over the teams and suites journeys it spent 92 against 124 CPU-seconds
// (renderer, browser and GPU processes) and they took 114 against 131 s, WebGPU through SwiftShader included
// (e2e/faces-webgpu.spec.ts passes on both).
import { existsSync } from "node:fs";

export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium";
}
