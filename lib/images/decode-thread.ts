// Image decoding on a worker thread, so a multi-megapixel PNG or JPEG never blocks the server's event loop. One
// long-lived thread (decodes are queued: the machine has few cores and the web server needs one), restarted if it
// dies. The thread's code is inline and loads the same decoders from the app's node_modules.
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { webpDecoderFiles } from "./webp";

const SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { readFileSync } = require("node:fs");
const { PNG } = require(workerData.pngjs);
const jpeg = require(workerData.jpeg);
let webp = null;
const webpDecode = () => (webp ??= import(workerData.webp.module).then(async (m) => {
  await m.init(await WebAssembly.compile(readFileSync(workerData.webp.wasm)));
  return m.default;
}));
parentPort.on("message", async ({ id, buf, ext, maxMP }) => {
  try {
    let size;
    if (ext === "png") {
      const p = PNG.sync.read(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength));
      size = { width: p.width, height: p.height };
    } else if (ext === "jpg") {
      const img = jpeg.decode(buf, { useTArray: true, maxResolutionInMP: maxMP, maxMemoryUsageInMB: 1024 });
      size = { width: img.width, height: img.height };
    } else {
      const img = await (await webpDecode())(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
      if (!img) throw new Error("libwebp could not decode it");
      size = { width: img.width, height: img.height };
    }
    parentPort.postMessage({ id, size });
  } catch (e) {
    parentPort.postMessage({ id, error: String((e && e.message) || e) });
  }
});`;

type Pending = { resolve: (s: { width: number; height: number }) => void; reject: (e: Error) => void };
let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();

function thread(): Worker {
  if (worker) return worker;
  const req = createRequire(path.join(process.cwd(), "package.json"));
  const w = new Worker(SOURCE, {
    eval: true,
    workerData: { pngjs: req.resolve("pngjs"), jpeg: req.resolve("jpeg-js"), webp: webpDecoderFiles() },
    resourceLimits: { maxOldGenerationSizeMb: 1536 },
  });
  w.on("message", (m: { id: number; size?: { width: number; height: number }; error?: string }) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (!pending.size) w.unref();
    if (m.error !== undefined) p.reject(new Error(m.error));
    else p.resolve(m.size!);
  });
  const fail = (e: Error) => {
    if (worker === w) worker = null;
    for (const [id, p] of pending) {
      pending.delete(id);
      p.reject(e);
    }
  };
  w.on("error", fail);
  w.on("exit", (code) => fail(new Error(`decoder thread exited (${code})`)));
  // Referenced only while a decode is pending (set after the listeners, since attaching one refs the thread): an
  // idle decoder never keeps a process alive, and a waiting caller never sees its process exit under it.
  w.unref();
  worker = w;
  return w;
}

/** The decoded width and height of a PNG, JPEG or WebP, computed on the decoder thread. */
export function decodeOffThread(buf: Uint8Array, ext: "png" | "jpg" | "webp", maxMP: number): Promise<{ width: number; height: number }> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    const w = thread();
    pending.set(id, { resolve, reject });
    w.ref();
    // A copy goes to the thread: the caller keeps its buffer (it is stored after validation).
    w.postMessage({ id, buf: new Uint8Array(buf), ext, maxMP });
  });
}
