// `fof verify` (Node, on a file) and /verify (the visitor's Chromium, in a Web Worker, on the bytes) must refuse the
// same bundles for the same reason, whatever the reader's time zone and locale. A hostile re-test (2026-12-07) found
// four ways they did not: a run's launch time re-signed without its offset ("…20:11:34.592", read as local time: the
// verdict followed the reader's clock), a signature re-written in base64url by an outsider (Node's decoder took it,
// the browser's atob did not), a small file padded past the CLI's cap but under the browser's, a table line that is
// no JSON (named "rows" by one and "archive" by the other), the bundle's own key given as a private key PEM (Node
// derives the public key; WebCrypto refuses), and text with a lone surrogate (the two databases read it back apart).
// Each is here, read by both, the browser's side in Chromium itself: lib/evidence/bundle-bytes.ts bundled as the
// worker bundles it, with WebCrypto's SHA-256 and Ed25519.
import { readFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath } from "./helpers/chromium";
import { testDataDir } from "./helpers/data-dir";

const dir = testDataDir("verifier-readers-");
process.env.FOF_DATA_DIR = dir;
const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { writeBundle } = await import("../lib/features/evidence/bundle");
const { verifyBundle } = await import("../lib/features/evidence/verify");
const { publicKeyInfo, signingKey } = await import("../lib/features/ledger/keys");
const { tampered, text } = await import("./helpers/evidence");
type Entries = import("./helpers/evidence").Entries;
type Check = { check: string; ok: boolean; detail: string };

let bundle = "";
let pem = "";
let script = "";
const browser = await chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox"] });

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const run = await engine.createRun(db(), { models: ["baseline:uniform"], config: engine.presetConfig("smoke", { tests: ["objective"] }), seed: 4 });
  await new engine.Worker(db(), { runId: run.id, pollMs: 10, flushMs: 10 }).run({ untilDone: true });
  bundle = path.join(dir, "audit.zip");
  await writeBundle(db(), run.id, bundle);
  pem = publicKeyInfo().pem;
  // the browser verifier's checks as its worker runs them (components/evidence/verify.worker.ts), without the re-scoring
  const bundled = await build({
    stdin: {
      contents: `import { verifyBundleBytes } from "./lib/evidence/bundle-bytes";
        const hex = (b) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, "0")).join("");
        const der = (pem) => Uint8Array.from(atob(pem.replace(/-----[^-]+-----/g, "").replace(/\\s+/g, "")), (c) => c.charCodeAt(0));
        globalThis.check = (bytes, publicKeyPem) => verifyBundleBytes(bytes, { publicKeyPem, crypto: {
          sha256: async (b) => hex(await crypto.subtle.digest("SHA-256", b)),
          verify: async (message, sig, pem) => crypto.subtle.verify({ name: "Ed25519" }, await crypto.subtle.importKey("spki", der(pem), { name: "Ed25519" }, false, ["verify"]), sig, message),
        } });`,
      resolveDir: path.resolve(__dirname, ".."),
      loader: "ts",
    },
    bundle: true,
    format: "iife",
    platform: "browser",
    write: false,
    logLevel: "silent",
    alias: { "@": path.resolve(__dirname, "..") },
  });
  script = bundled.outputFiles[0].text;
}, 180_000);
afterAll(() => browser.close());

/** The browser's checks of a file, in Chromium under a locale and time zone; `key`: the key given (null: the bundle's own). */
async function inBrowser(file: string, { timezoneId = "UTC", locale = "en-US", key = pem as string | null } = {}): Promise<Check[]> {
  const context = await browser.newContext({ timezoneId, locale });
  try {
    const page = await context.newPage();
    // a loopback origin (a secure context: WebCrypto), answered by the test itself
    await page.route("http://127.0.0.1:9/", (r) => r.fulfill({ contentType: "text/html", body: "<!doctype html><title>verify</title>" }));
    await page.goto("http://127.0.0.1:9/");
    await page.addScriptTag({ content: script });
    const r = await page.evaluate(
      async ([b64, k]) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        try {
          return (await (globalThis as unknown as { check: (b: Uint8Array, k?: string) => Promise<{ checks: Check[] }> }).check(bytes, k ?? undefined)).checks;
        } catch (e) {
          return [{ check: "archive", ok: false, detail: String(e) }];
        }
      },
      [readFileSync(file).toString("base64"), key ?? null] as const,
    );
    return r;
  } finally {
    await context.close();
  }
}

/** `fof verify`'s checks of a file under a time zone (up to where the browser's integrity checks end). */
async function inCli(file: string, { tz = "UTC", key = pem as string | null } = {}): Promise<Check[]> {
  const before = process.env.TZ;
  process.env.TZ = tz;
  try {
    return (await verifyBundle(file, key ? { publicKeyPem: key } : {})).checks;
  } finally {
    process.env.TZ = before;
  }
}

const INTEGRITY = ["archive", "key", "signature", "statement", "manifest", "files", "rows", "completeness", "design"];
const firstFailure = (checks: Check[]) => checks.find((c) => !c.ok && INTEGRITY.includes(c.check)) ?? null;

describe("the two verifiers refuse alike", () => {
  it("verify a genuine bundle in any time zone and locale", async () => {
    for (const tz of ["UTC", "Europe/Copenhagen", "America/New_York"]) expect(firstFailure(await inCli(bundle, { tz }))).toBeNull();
    for (const [timezoneId, locale] of [
      ["UTC", "en-US"],
      ["Europe/Copenhagen", "da-DK"],
      ["Asia/Kolkata", "tr-TR"],
    ])
      expect(firstFailure(await inBrowser(bundle, { timezoneId, locale }))).toBeNull();
  }, 120_000);

  it("a launch time without its offset, re-signed: refused by both, whatever the reader's clock", async () => {
    const file = tampered(
      bundle,
      dir,
      "local-time",
      (e: Entries) => {
        const run = JSON.parse(text(e["run.json"]));
        run.createdAt = String(run.createdAt).replace(/Z$/, "");
        e["run.json"] = Buffer.from(JSON.stringify(run));
      },
      signingKey(),
    );
    const verdicts = [
      ...(await Promise.all(["UTC", "Europe/Copenhagen", "America/New_York"].map((tz) => inCli(file, { tz })))),
      ...(await Promise.all(["UTC", "Europe/Copenhagen", "America/New_York"].map((timezoneId) => inBrowser(file, { timezoneId })))),
    ].map(firstFailure);
    for (const v of verdicts) {
      expect(v?.check).toBe("completeness");
      expect(v?.detail).toMatch(/run\.json: createdAt ".*" is not an ISO 8601 instant/);
    }
  }, 120_000);

  it("a signature re-written in base64url by an outsider: refused by both as no DSSE envelope", async () => {
    const file = tampered(bundle, dir, "base64url", (e: Entries) => {
      const env = JSON.parse(text(e["attestation.dsse.json"]));
      env.signatures[0].sig = String(env.signatures[0].sig).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      env.payload = String(env.payload).replace(/=+$/, "") + "=junk";
      e["attestation.dsse.json"] = Buffer.from(JSON.stringify(env));
    });
    const [cli, web] = [firstFailure(await inCli(file)), firstFailure(await inBrowser(file))];
    expect(cli?.check).toBe("signature");
    expect(web?.check).toBe("signature");
    expect(cli?.detail).toMatch(/not a DSSE envelope/);
    expect(web?.detail).toMatch(/not a DSSE envelope/);
  }, 60_000);

  it("a small file padded past the shared cap, re-signed: refused by both, in the same words", async () => {
    const file = tampered(
      bundle,
      dir,
      "padded",
      (e: Entries) => void (e["scores.json"] = Buffer.concat([Buffer.from(e["scores.json"]), Buffer.alloc(65 * 1024 ** 2, 0x20)])),
      signingKey(),
    );
    const [cli, web] = [firstFailure(await inCli(file)), firstFailure(await inBrowser(file))];
    expect(cli).toEqual(web);
    expect(cli?.check).toBe("archive");
    expect(cli?.detail).toMatch(/the files read whole .* over the 67108864-byte limit/);
  }, 120_000);

  it("a table line that is no JSON, re-signed: the rows' failure for both", async () => {
    const file = tampered(
      bundle,
      dir,
      "bad-line",
      (e: Entries) => void (e["outcomes.jsonl"] = Buffer.concat([Buffer.from("{not json\n"), Buffer.from(e["outcomes.jsonl"])])),
      signingKey(),
    );
    const [cli, web] = [firstFailure(await inCli(file)), firstFailure(await inBrowser(file))];
    expect(cli?.check).toBe("rows");
    expect(web?.check).toBe("rows");
  }, 60_000);

  it("text with a lone UTF-16 surrogate, re-signed (the two databases read it back differently): refused by both", async () => {
    const file = tampered(
      bundle,
      dir,
      "lone-surrogate",
      (e: Entries) => {
        const [first, ...rest] = text(e["outcomes.jsonl"]).split("\n");
        const row = JSON.parse(first);
        row.rawText = "\ud800B";
        e["outcomes.jsonl"] = Buffer.from([JSON.stringify(row), ...rest].join("\n"));
      },
      signingKey(),
    );
    for (const v of [firstFailure(await inCli(file)), firstFailure(await inBrowser(file))]) {
      expect(v?.check).toBe("completeness");
      expect(v?.detail).toMatch(/outcomes\.jsonl: rawText holds a lone UTF-16 surrogate/);
    }
  }, 60_000);

  it("the bundle's own key given as a private key PEM (no key given): refused by both", async () => {
    const file = tampered(
      bundle,
      dir,
      "private-key",
      (e: Entries) => void (e["signer-public-key.pem"] = Buffer.from(signingKey().export({ type: "pkcs8", format: "pem" }).toString())),
      signingKey(),
    );
    const [cli, web] = [firstFailure(await inCli(file, { key: null })), firstFailure(await inBrowser(file, { key: null }))];
    expect(cli?.check).toBe("signature");
    expect(web?.check).toBe("signature");
    expect(cli?.detail).toBe(web?.detail);
    // and the genuine bundle's own key verifies in both (integrity only)
    expect(firstFailure(await inCli(bundle, { key: null }))).toBeNull();
    expect(firstFailure(await inBrowser(bundle, { key: null }))).toBeNull();
  }, 60_000);
});
