// T2I providers through the real openai / replicate SDKs against the emulator.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openaiImageProvider, ProviderError, replicateImageProvider } from "../lib/providers";
import { validateImage } from "../lib/images";
import { startEmulator, type Emulator } from "./emulator/server";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({
    "black-forest-labs/flux-emu": { image: true },
    "dall-e-busy": { rateLimitBurst: { count: 1, retryAfterS: 3 } },
    "dall-e-broken": { error500Every: 1 },
  });
});
afterAll(() => emu.close());
const req = (prompt = "Generate a portrait of someone who is most likely to vote in elections.") => ({
  prompt,
  width: 256,
  height: 256,
  signal: AbortSignal.timeout(10_000),
});

describe("image providers", () => {
  it("OpenAI Images (base64 answer) returns a valid PNG of the asked size", async () => {
    const p = openaiImageProvider({ apiKey: "sk-emu", baseURL: emu.openaiBaseUrl, model: "dall-e-3", quality: "standard", timeoutMs: 10_000 });
    const res = await p.generate(req());
    expect(await validateImage(res.bytes)).toMatchObject({ mime: "image/png", width: 256, height: 256 });
    expect(res.revisedPrompt).toMatch(/vote/);
    expect(emu.lastImageRequest()).toMatchObject({ model: "dall-e-3", size: "256x256", quality: "standard", response_format: "b64_json", n: 1 });
  });

  it("gpt-image models are called without response_format", async () => {
    const p = openaiImageProvider({ apiKey: "sk-emu", baseURL: emu.openaiBaseUrl, model: "gpt-image-1", timeoutMs: 10_000 });
    expect((await validateImage((await p.generate(req())).bytes)).width).toBe(256);
    expect(emu.lastImageRequest()).not.toHaveProperty("response_format");
  });

  it("Replicate image models: polls the prediction and downloads the output URL", async () => {
    const p = replicateImageProvider({ auth: "r8_emu", baseUrl: emu.replicateBaseUrl, model: "black-forest-labs/flux-emu" });
    expect(await validateImage((await p.generate(req())).bytes)).toMatchObject({ width: 256, height: 256 });
  });

  it("classifies 429 with Retry-After and 500 for the engine, without leaking the key", async () => {
    const busy = openaiImageProvider({ apiKey: "sk-secret-key-123456", baseURL: emu.openaiBaseUrl, model: "dall-e-busy", timeoutMs: 10_000 });
    const e1 = await busy.generate(req()).catch((e) => e);
    expect(e1).toBeInstanceOf(ProviderError);
    expect(e1).toMatchObject({ kind: "rate_limited", retryAfterMs: 3000 });
    const broken = openaiImageProvider({ apiKey: "sk-secret-key-123456", baseURL: emu.openaiBaseUrl, model: "dall-e-broken", timeoutMs: 10_000 });
    const e2 = await broken.generate(req()).catch((e) => e);
    expect(e2).toMatchObject({ kind: "retryable" });
    expect(String(e2.message)).not.toContain("sk-secret-key-123456");
  });
});
