// The tested deployment path: the app behind Caddy (deploy/Caddyfile, exactly as shipped) with Caddy's internal CA,
// reached under a non-localhost name over HTTPS in Chromium. The Label page must be a secure, cross-origin-isolated
// context there (WebGPU needs a secure context, WASM threads need SharedArrayBuffer, the model check needs
// crypto.subtle) — the things a plain-HTTP LAN address silently loses. Skips when Caddy is not installed.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, expect, test } from "@playwright/test";
import { chromiumLaunch } from "../playwright.config";

const hasCaddy = spawnSync("sh", ["-c", "command -v caddy"]).status === 0;
const ADMIN = { email: "tls-admin@e2e.example.org", password: "tls-admin-password" };
const children: ChildProcess[] = [];

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Whether something accepts a TCP connection on this machine's `port`. */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

async function waitFor(url: string, ok: (status: number) => boolean, what: string, log: () => string) {
  for (let i = 0; i < 240; i++) {
    try {
      const res = await fetch(url, { redirect: "manual" });
      if (ok(res.status)) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not come up: ${log().slice(-2000)}`);
}

test.describe("deployment behind Caddy (TLS, internal CA)", () => {
  test.skip(!hasCaddy, "caddy is not installed (Debian: apt install caddy)");
  test.setTimeout(180_000);
  let httpsPort = 0;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const appPort = await freePort();
    httpsPort = await freePort();
    const httpPort = await freePort();
    const dir = mkdtempSync(path.join(tmpdir(), "fof-tls-"));
    let appLog = "";
    const app = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      env: {
        ...process.env,
        PORT: String(appPort),
        HOST: "127.0.0.1",
        FOF_DATA_DIR: path.join(dir, "data"),
        DATABASE_URL: "",
        FOF_PUBLIC_URL: `https://fof.test:${httpsPort}`,
        // As deploy/fof.env.example sets it: Caddy on this host reports the client's address.
        FOF_TRUSTED_PROXIES: "127.0.0.1,::1",
        FOF_ADMIN_EMAIL: ADMIN.email,
        FOF_ADMIN_PASSWORD: ADMIN.password,
        FOF_WORKER: "off",
        NEXT_TELEMETRY_DISABLED: "1",
        CHECKPOINT_DISABLE: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    app.stdout!.on("data", (d) => (appLog += d));
    app.stderr!.on("data", (d) => (appLog += d));
    children.push(app);
    await waitFor(
      `http://127.0.0.1:${appPort}/sign-in`,
      (s) => s === 200,
      "the app",
      () => appLog,
    );

    let caddyLog = "";
    const caddy = spawn("caddy", ["run", "--config", "deploy/Caddyfile", "--adapter", "caddyfile"], {
      env: {
        ...process.env,
        FOF_DOMAIN: `fof.test:${httpsPort}`,
        FOF_UPSTREAM: `127.0.0.1:${appPort}`,
        FOF_TLS: "internal",
        FOF_CADDY_GLOBAL: `http_port ${httpPort}`,
        XDG_DATA_HOME: path.join(dir, "caddy-data"),
        XDG_CONFIG_HOME: path.join(dir, "caddy-config"),
        HOME: dir,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    caddy.stdout!.on("data", (d) => (caddyLog += d));
    caddy.stderr!.on("data", (d) => (caddyLog += d));
    children.push(caddy);
    // Caddy's certificate is for fof.test, signed by its own CA: wait until it answers on the TLS port at all. (This
    // once probed the port with `sh -c 'exec 3<>/dev/tcp/…'`, a bash-only path that Debian's sh does not have: every
    // probe failed and the loop spent its whole 30 s.)
    for (let i = 0; ; i++) {
      if (/serving initial configuration|certificate obtained successfully|enabling automatic TLS/.test(caddyLog) && (await accepts(httpsPort))) break;
      if (caddy.exitCode !== null) throw new Error(`caddy exited: ${caddyLog}`);
      if (i === 120) throw new Error(`caddy did not listen on ${httpsPort} within 30 s: ${caddyLog.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  });

  test.afterAll(() => {
    for (const c of children.reverse()) c.kill("SIGTERM");
  });

  test("the Label page is a secure, cross-origin-isolated context over HTTPS under a real name", async () => {
    const launch = chromiumLaunch({ webgpu: true });
    const browser = await chromium.launch({
      ...launch,
      // fof.test resolves to this machine; Caddy's internal CA is not in Chromium's store, so its certificate is
      // accepted for this browser only (the page is still https, hence a secure context).
      args: [...launch.args, `--host-resolver-rules=MAP fof.test 127.0.0.1`],
    });
    try {
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const page = await context.newPage();
      const base = `https://fof.test:${httpsPort}`;
      const first = await page.goto(`${base}/sign-in?next=%2Flabel`);
      // Caddy's headers on top of the app's.
      const h = first!.headers();
      expect(h["strict-transport-security"]).toContain("max-age=31536000");
      expect(h["x-content-type-options"]).toBe("nosniff");
      expect(h["permissions-policy"]).toContain("camera=()");
      expect(h["server"]).toBeUndefined();
      await page.locator("form[data-hydrated][data-testid=sign-in-form]").waitFor();
      await page.getByLabel("Email").fill(ADMIN.email);
      await page.getByLabel("Password").fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(`${base}/label`);
      // The session cookie is Secure behind the https public URL.
      const cookies = await context.cookies(base);
      expect(cookies.some((c) => c.secure && c.httpOnly)).toBe(true);
      const ctx = await page.evaluate(async () => ({
        secure: self.isSecureContext,
        isolated: self.crossOriginIsolated,
        sab: typeof SharedArrayBuffer === "function",
        subtle: !!crypto.subtle && (await crypto.subtle.digest("SHA-256", new TextEncoder().encode("fof"))).byteLength === 32,
        // WebGPU exists only in secure contexts; here the software adapter answers.
        gpu: "gpu" in navigator && !!(await (navigator as unknown as { gpu: { requestAdapter(): Promise<unknown> } }).gpu.requestAdapter()),
        // onnxruntime-web's WASM threads share one memory: possible only cross-origin isolated.
        sharedWasmMemory: (() => {
          try {
            return new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true }).buffer instanceof SharedArrayBuffer;
          } catch {
            return false;
          }
        })(),
        protocol: location.protocol,
        host: location.hostname,
      }));
      expect(ctx).toEqual({ secure: true, isolated: true, sab: true, subtle: true, gpu: true, sharedWasmMemory: true, protocol: "https:", host: "fof.test" });
      await expect(page.getByRole("heading", { name: "Label faces" })).toBeVisible();
      // The health check answers through the proxy too.
      const res = await page.evaluate(async () => {
        const r = await fetch("/api/health");
        return { status: r.status, requestId: r.headers.get("x-request-id"), body: await r.json() };
      });
      expect(res.status).toBe(200);
      expect(res.requestId).toBeTruthy();
      expect(res.body).toMatchObject({ database: { reachable: true }, migrations: { current: true } });
    } finally {
      await browser.close();
    }
  });
});
