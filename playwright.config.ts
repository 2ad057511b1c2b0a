import { defineConfig, devices } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromiumPath } from "./tests/helpers/chromium";

// Each e2e run serves the production build on its own empty data directory.
const port = Number(process.env.E2E_PORT ?? 3210);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "fof-e2e-"));
process.env.E2E_DATA_DIR = dataDir; // workers re-evaluate this file: keep one directory
export const emulatorPort = Number(process.env.E2E_EMULATOR_PORT ?? 3299);
export const E2E_SECRET_CANARY = "sk-e2e-canary-must-never-reach-the-browser";
/** The admin the server creates at start (FOF_ADMIN_EMAIL / FOF_ADMIN_PASSWORD); journeys run signed in as them. */
export const E2E_ADMIN = { email: "admin@e2e.example.org", password: "e2e-admin-password" };
export const ADMIN_STATE = path.join(dataDir, "admin-state.json");
/** A second server with no account at all, for the first-run journey (its own data directory and port). */
const firstRunPort = Number(process.env.E2E_FIRST_RUN_PORT ?? port + 1);
const firstRunDir = process.env.E2E_FIRST_RUN_DIR ?? mkdtempSync(path.join(tmpdir(), "fof-e2e-first-"));
process.env.E2E_FIRST_RUN_DIR = firstRunDir;
/** A third server signing people in through a test OpenID Connect provider (e2e/sso.spec.ts). */
export const ssoPort = Number(process.env.E2E_SSO_PORT ?? port + 2);
export const oidcPort = Number(process.env.E2E_OIDC_PORT ?? 3298);
/** An OTLP trace receiver the single sign-on server exports its spans to (e2e/sso.spec.ts reads them back). */
export const otlpPort = Number(process.env.E2E_OTLP_PORT ?? 3297);
const ssoDir = process.env.E2E_SSO_DIR ?? mkdtempSync(path.join(tmpdir(), "fof-e2e-sso-"));
process.env.E2E_SSO_DIR = ssoDir;

/**
 * How every journey's Chromium is launched. A software WebGPU adapter (SwiftShader: `webgpu: true`) only for the
 * journeys that need one (e2e/faces-webgpu.spec.ts): with its flags Chromium composites every page through SwiftShader's
 * Vulkan/GL as well, and its GPU process took ~5× the CPU of a plain headless browser (52 against 10 CPU-seconds over
 * the teams journeys) on a CI machine where every core is busy.
 */
export function chromiumLaunch({ webgpu = false } = {}) {
  return {
    executablePath: chromiumPath(),
    args: [
      "--no-sandbox",
      "--disable-gpu-sandbox",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
      ...(webgpu
        ? ["--enable-unsafe-webgpu", "--enable-features=Vulkan", "--use-angle=swiftshader", "--use-vulkan=swiftshader", "--enable-unsafe-swiftshader"]
        : []),
    ],
  };
}

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"], ["json", { outputFile: "test-results/e2e-results.json" }]],
  // Limits catch hangs, not slowness: a busy 2-core CI machine must not fail a journey that a quiet one passes
  // (speed is measured by the benchmarks). A journey whose work is known to vary widely with the machine (software
  // WebGPU) derives its own limit from what it measures (e2e/faces-webgpu.spec.ts).
  timeout: 180_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // In CI a trace (DOM snapshots and screenshots of every step) is recorded for a journey's retry, not for every
    // first try: recording it for all of them cost the browser and the runner CPU on every journey (over the teams and
    // suites journeys 92 → 70 CPU-s for the browser, 18 → 10 for the runner), to keep a trace only for the rare
    // failure. A failure in CI is retried (retries: 1), so a failing journey still leaves its trace; run by hand
    // (no retries), a failure keeps the trace of its one try.
    trace: process.env.CI ? "on-first-retry" : "retain-on-failure",
    launchOptions: chromiumLaunch(),
  },
  projects: [
    // Signs in once and keeps the session cookie for every journey.
    { name: "sign-in", testMatch: /sign-in\.setup\.ts/, use: { ...devices["Desktop Chrome"] } },
    { name: "chromium", dependencies: ["sign-in"], testIgnore: /(first-run|sso)\.spec\.ts/, use: { ...devices["Desktop Chrome"], storageState: ADMIN_STATE } },
    { name: "first-run", testMatch: /first-run\.spec\.ts/, use: { ...devices["Desktop Chrome"], baseURL: `http://127.0.0.1:${firstRunPort}` } },
    { name: "sso", testMatch: /sso\.spec\.ts/, use: { ...devices["Desktop Chrome"], baseURL: `http://127.0.0.1:${ssoPort}` } },
  ],
  webServer: [
    {
      // The provider emulator stands in for OpenAI-compatible and Replicate APIs.
      command: `node_modules/.bin/tsx tests/emulator/cli.ts ${emulatorPort}`,
      url: `http://127.0.0.1:${emulatorPort}/__stats`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: "node_modules/.bin/tsx scripts/start.ts",
      url: `http://127.0.0.1:${port}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        PORT: String(port),
        HOST: "127.0.0.1",
        FOF_DATA_DIR: dataDir,
        OPENAI_API_KEY: E2E_SECRET_CANARY,
        FOF_ADMIN_EMAIL: E2E_ADMIN.email,
        FOF_ADMIN_PASSWORD: E2E_ADMIN.password,
        REPLICATE_API_TOKEN: E2E_SECRET_CANARY,
        // The provider emulator is on loopback: allowed as an operator allows a local endpoint.
        FOF_ALLOWED_ENDPOINTS: "127.0.0.1,::1,localhost",
        NEXT_TELEMETRY_DISABLED: "1",
        CHECKPOINT_DISABLE: "1",
      },
    },
    {
      // No FOF_ADMIN_*: the first visit has to create the first admin.
      command: "node_modules/.bin/tsx scripts/start.ts",
      url: `http://127.0.0.1:${firstRunPort}/sign-in`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
      // Listens on every interface: the journey also reaches it from this machine's network address, as a remote
      // client would, to check that forged forwarding headers do not make a request "local".
      env: { PORT: String(firstRunPort), HOST: "0.0.0.0", FOF_DATA_DIR: firstRunDir, FOF_WORKER: "off", NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1" },
    },
    {
      // A real OpenID Connect provider (oidc-provider) on loopback, its people's groups set by the journey.
      command: `node_modules/.bin/tsx tests/helpers/oidc-provider-cli.mts ${oidcPort} http://127.0.0.1:${ssoPort}/api/auth/callback/oidc`,
      url: `http://127.0.0.1:${oidcPort}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: `node_modules/.bin/tsx tests/helpers/otlp-receiver-cli.mts ${otlpPort}`,
      url: `http://127.0.0.1:${otlpPort}/__bodies`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // Signs people in through that provider: example.org only, groups mapped to roles, accounts made at first sign-in.
      // Its spans (ours and Next.js's own) go to the OTLP receiver above: the journey checks no URL secret is in them.
      command: "node_modules/.bin/tsx scripts/start.ts",
      url: `http://127.0.0.1:${ssoPort}/sign-in`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        PORT: String(ssoPort),
        HOST: "127.0.0.1",
        FOF_DATA_DIR: ssoDir,
        FOF_WORKER: "off",
        FOF_ADMIN_EMAIL: E2E_ADMIN.email,
        FOF_ADMIN_PASSWORD: E2E_ADMIN.password,
        FOF_ALLOWED_ENDPOINTS: "127.0.0.1",
        FOF_OIDC_ISSUER: `http://127.0.0.1:${oidcPort}`,
        FOF_OIDC_CLIENT_ID: "fof-workbench",
        FOF_OIDC_CLIENT_SECRET: "a-test-client-secret-of-some-length",
        FOF_OIDC_NAME: "Example SSO",
        FOF_OIDC_SCOPES: "openid email profile groups",
        FOF_OIDC_ALLOWED_DOMAINS: "example.org",
        FOF_OIDC_ROLE_MAP: JSON.stringify({ "fof-runners": "runner", "fof-viewers": "viewer" }),
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlpPort}`,
        NEXT_TELEMETRY_DISABLED: "1",
        CHECKPOINT_DISABLE: "1",
      },
    },
  ],
});
