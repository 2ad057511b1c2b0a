// Provider emulator: a local HTTP server speaking the OpenAI chat-completions and Replicate predictions wire
// formats, scripted per model. The real SDKs talk to it through their base-URL settings. Used by the
// integration tests, the e2e journey and the benchmarks. Loopback only.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { PNG } from "pngjs";
import { calibratedLetter } from "./calibrated";

export interface ModelScript {
  /**
   * how answers are chosen: uniformly; always the option naming `prefer` (a race or gender) when present; or as
   * baseline:calibrated:<calibrated> does (the true group with that probability; ./calibrated.ts)
   */
  answers?: "uniform" | { prefer: string } | { calibrated: number };
  latencyMs?: number;
  /** the first `count` calls get 429 with Retry-After `retryAfterS` */
  rateLimitBurst?: { count: number; retryAfterS: number };
  /** every n-th call returns HTTP 500 */
  error500Every?: number;
  /** every n-th call (or every call with 1) answers prose without the JSON */
  malformedEvery?: number;
  /** every n-th call never answers */
  hangEvery?: number;
  /** tokens reported per call */
  usage?: { prompt: number; completion: number };
  /** a Replicate model that returns images (an output URL served by the emulator) */
  image?: boolean;
  /** image models: answer these photo files in turn instead of solid-colour PNGs (to test faces end to end) */
  photos?: string[];
  /** image models: every n-th image is bytes that are not an image */
  corruptImageEvery?: number;
  /** chat: answer this prose instead of a letter (a helper model's reasoning) */
  prose?: string;
  /** chat: every n-th call stops at max_tokens (finish_reason "length") */
  truncateEvery?: number;
}

/** A small solid-colour PNG whose colour depends on the prompt (no faces: labelling is tested with real photos). */
function makePng(width: number, height: number, prompt: string): Buffer {
  const png = new PNG({ width, height });
  let h = 0;
  for (const ch of prompt) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  for (let i = 0; i < width * height; i++) {
    png.data[i * 4] = h & 255;
    png.data[i * 4 + 1] = (h >> 8) & 255;
    png.data[i * 4 + 2] = (h >> 16) & 255;
    png.data[i * 4 + 3] = 255;
  }
  return PNG.sync.write(png);
}

interface EmulatorStats {
  calls: number;
  byModel: Record<string, number>;
  /** the most calls of each model in progress at once (what a global concurrency limit must bound) */
  peakConcurrent: Record<string, number>;
  status: Record<string, number>;
}

export interface Emulator {
  url: string;
  openaiBaseUrl: string;
  replicateBaseUrl: string;
  stats(): EmulatorStats;
  reset(): void;
  setScript(model: string, script: ModelScript): void;
  /** the body of the last images/generations request, to check what the SDK sent */
  lastImageRequest(): Record<string, unknown> | null;
  /** every images/generations prompt, in arrival order (the last 1,000) */
  imagePrompts(): string[];
  /** the messages of each chat request, in arrival order (the last 1,000), to check what was sent */
  chatRequests(): Array<{ model: string; messages: Array<{ role: string; content: string }>; temperature?: unknown; max_tokens?: unknown }>;
  close(): Promise<void>;
}

/** A tiny seeded generator so the emulator's answers repeat across runs. */
function mulberry32(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function chooseLetter(prompt: string, script: ModelScript, rand: () => number): string {
  const options = [...prompt.matchAll(/^([A-D])\. (.+)$/gm)].map((m) => ({ letter: m[1], text: m[2] }));
  const letters = options.length ? options.map((o) => o.letter) : ["A", "B"];
  if (script.answers && typeof script.answers === "object" && "calibrated" in script.answers) {
    const letter = calibratedLetter(prompt, script.answers.calibrated, rand);
    if (letter) return letter;
  } else if (script.answers && typeof script.answers === "object") {
    const want = script.answers.prefer.toLowerCase();
    const hit = options.find((o) => new RegExp(`\\b${want}\\b`, "i").test(o.text));
    if (hit) return hit.letter;
  }
  return letters[Math.floor(rand() * letters.length)];
}

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : {};
}

function send(res: ServerResponse, status: number, json: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(json));
}

export async function startEmulator(initial: Record<string, ModelScript> = {}, port = 0): Promise<Emulator> {
  const scripts = new Map(Object.entries(initial));
  const perModelCalls = new Map<string, number>();
  const statusCounts: Record<string, number> = {};
  const predictions = new Map<string, { status: string; output: string[] | null; error: string | null }>();
  const rand = mulberry32(12345);
  let calls = 0;
  let predictionSeq = 0;
  const hanging = new Set<ServerResponse>();
  const active = new Map<string, number>();
  const peak = new Map<string, number>();
  const files = new Map<string, Buffer>();
  let lastImageRequest: Record<string, unknown> | null = null;
  const imageLog: string[] = [];
  const chatLog: Array<{ model: string; messages: Array<{ role: string; content: string }>; temperature?: unknown; max_tokens?: unknown }> = [];

  /** Decides one call's fate; returns the answer text or an HTTP error to send. */
  /** The bytes an image model answers for its n-th call. */
  function imageFor(model: string, width: number, height: number, prompt: string): Buffer {
    const script = scripts.get(model) ?? {};
    const n = perModelCalls.get(model) ?? 1;
    if (script.corruptImageEvery && n % script.corruptImageEvery === 0) return Buffer.from("<html>not an image</html>");
    if (script.photos?.length) return readFileSync(script.photos[(n - 1) % script.photos.length]);
    return makePng(Math.min(width || 256, 1024), Math.min(height || 256, 1024), prompt);
  }

  async function respond(
    model: string,
    prompt: string,
  ): Promise<{ status: number; text?: string; headers?: Record<string, string>; hang?: boolean; finish?: string }> {
    const script = scripts.get(model) ?? {};
    calls++;
    const n = (perModelCalls.get(model) ?? 0) + 1;
    perModelCalls.set(model, n);
    const now = (active.get(model) ?? 0) + 1;
    active.set(model, now);
    peak.set(model, Math.max(peak.get(model) ?? 0, now));
    try {
      if (script.latencyMs) await new Promise((r) => setTimeout(r, script.latencyMs));
    } finally {
      active.set(model, (active.get(model) ?? 1) - 1);
    }
    if (script.rateLimitBurst && n <= script.rateLimitBurst.count)
      return { status: 429, headers: { "retry-after": String(script.rateLimitBurst.retryAfterS) } };
    if (script.hangEvery && n % script.hangEvery === 0) return { status: 0, hang: true };
    if (script.error500Every && n % script.error500Every === 0) return { status: 500 };
    if (script.malformedEvery && n % script.malformedEvery === 0) return { status: 200, text: "I would rather not pick anyone based on demographics." };
    if (script.prose !== undefined)
      return { status: 200, text: script.prose, ...(script.truncateEvery && n % script.truncateEvery === 0 ? { finish: "length" } : {}) };
    return { status: 200, text: JSON.stringify({ answer: chooseLetter(prompt, script, rand) }) };
  }

  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://emulator");
      if (req.method === "GET" && url.pathname === "/__stats")
        return send(res, 200, { calls, byModel: Object.fromEntries(perModelCalls), peakConcurrent: Object.fromEntries(peak), status: statusCounts });

      if (req.method === "POST" && url.pathname === "/v1/chat/completions") {
        const b = (await body(req)) as { model: string; messages: Array<{ role: string; content: string }>; temperature?: unknown; max_tokens?: unknown };
        chatLog.push({
          model: b.model,
          messages: b.messages ?? [],
          ...("temperature" in b ? { temperature: b.temperature } : {}),
          ...("max_tokens" in b ? { max_tokens: b.max_tokens } : {}),
        });
        if (chatLog.length > 1000) chatLog.shift();
        const prompt = b.messages?.map((m) => m.content).join("\n") ?? "";
        const r = await respond(b.model, prompt);
        statusCounts[String(r.hang ? "hang" : r.status)] = (statusCounts[String(r.hang ? "hang" : r.status)] ?? 0) + 1;
        if (r.hang) return void hanging.add(res);
        if (r.status !== 200)
          return send(res, r.status, { error: { message: r.status === 429 ? "Rate limit reached" : "Internal error", type: "emulator" } }, r.headers);
        const usage = scripts.get(b.model)?.usage ?? { prompt: Math.ceil(prompt.length / 4), completion: 6 };
        return send(res, 200, {
          id: `chatcmpl-${calls}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: b.model,
          choices: [{ index: 0, message: { role: "assistant", content: r.text }, finish_reason: r.finish ?? "stop" }],
          usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion },
        });
      }

      if (req.method === "POST" && url.pathname === "/v1/images/generations") {
        const b = (await body(req)) as { model: string; prompt: string; size?: string; response_format?: string };
        lastImageRequest = b;
        imageLog.push(b.prompt ?? "");
        if (imageLog.length > 1000) imageLog.shift();
        const r = await respond(b.model, b.prompt ?? "");
        statusCounts[String(r.hang ? "hang" : r.status)] = (statusCounts[String(r.hang ? "hang" : r.status)] ?? 0) + 1;
        if (r.hang) return void hanging.add(res);
        if (r.status !== 200)
          return send(res, r.status, { error: { message: r.status === 429 ? "Rate limit reached" : "Internal error", type: "emulator" } }, r.headers);
        const [w, h] = (b.size ?? "256x256").split("x").map(Number);
        const image = imageFor(b.model, w, h, b.prompt ?? "");
        if (b.response_format === "url") {
          const id = `img${files.size + 1}`;
          files.set(id, image);
          return send(res, 200, { created: Math.floor(Date.now() / 1000), data: [{ url: `${url.origin}/files/${id}.png`, revised_prompt: b.prompt }] });
        }
        return send(res, 200, { created: Math.floor(Date.now() / 1000), data: [{ b64_json: image.toString("base64"), revised_prompt: b.prompt }] });
      }
      const file = /^\/files\/([a-z0-9]+)\.png$/.exec(url.pathname);
      if (req.method === "GET" && file) {
        const f = files.get(file[1]);
        if (!f) return send(res, 404, { detail: "not found" });
        res.writeHead(200, { "content-type": "image/png" });
        return void res.end(f);
      }

      const create = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(url.pathname);
      if (req.method === "POST" && create) {
        const model = `${create[1]}/${create[2]}`;
        const b = (await body(req)) as { input: { prompt: string; width?: number; height?: number } };
        const r = await respond(model, b.input?.prompt ?? "");
        statusCounts[String(r.hang ? "hang" : r.status)] = (statusCounts[String(r.hang ? "hang" : r.status)] ?? 0) + 1;
        if (r.hang) return void hanging.add(res);
        if (r.status !== 200) return send(res, r.status, { detail: r.status === 429 ? "rate limited" : "internal error" }, r.headers);
        const id = `p${++predictionSeq}`;
        if (scripts.get(model)?.image) {
          const fileId = `rep${predictionSeq}`;
          files.set(fileId, imageFor(model, b.input?.width ?? 256, b.input?.height ?? 256, b.input?.prompt ?? ""));
          predictions.set(id, { status: "succeeded", output: [`http://${req.headers.host}/files/${fileId}.png`], error: null });
        } else {
          // Replicate streams tokens as an array of strings.
          predictions.set(id, { status: "succeeded", output: r.text!.match(/.{1,4}/gs) ?? [], error: null });
        }
        return send(res, 201, { id, model, status: "starting", input: b.input, output: null, urls: { get: `${url.origin}/v1/predictions/${id}` } });
      }
      const get = /^\/v1\/predictions\/([^/]+)$/.exec(url.pathname);
      if (req.method === "GET" && get) {
        const p = predictions.get(get[1]);
        if (!p) return send(res, 404, { detail: "not found" });
        return send(res, 200, { id: get[1], status: p.status, output: p.output, error: p.error });
      }
      send(res, 404, { error: { message: `no route ${req.method} ${url.pathname}` } });
    } catch (e) {
      send(res, 400, { error: { message: (e as Error).message } });
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: p } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${p}`;
  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    replicateBaseUrl: `${url}/v1`,
    stats: () => ({ calls, byModel: Object.fromEntries(perModelCalls), peakConcurrent: Object.fromEntries(peak), status: { ...statusCounts } }),
    reset: () => {
      calls = 0;
      perModelCalls.clear();
      peak.clear();
      for (const k of Object.keys(statusCounts)) delete statusCounts[k];
      imageLog.length = 0;
      chatLog.length = 0;
    },
    setScript: (model, script) => void scripts.set(model, script),
    lastImageRequest: () => lastImageRequest,
    imagePrompts: () => [...imageLog],
    chatRequests: () => chatLog.map((c) => ({ ...c, messages: c.messages.map((m) => ({ ...m })) })),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
