// WebP on the server: libwebp (Google's reference decoder) compiled to WebAssembly, from @jsquash/webp. Node has no
// WebP decoder of its own, and a WebP taken from its header alone (a 30-byte header, a RIFF size of 4 GiB, 1 MB of
// zeros claiming 8192²) must never reach storage or a label worker: imports and generated images are decoded whole,
// and the label workers decode what they label with the same code. The wasm module loads once per thread, lazily.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

export interface RgbaPixels {
  width: number;
  height: number;
  data: Uint8Array | Uint8ClampedArray;
}

/** Where the decoder lives: its ES module and its wasm file (for threads that load it themselves). */
export function webpDecoderFiles(): { module: string; wasm: string } {
  const req = createRequire(path.join(process.cwd(), "package.json"));
  const dir = path.dirname(req.resolve("@jsquash/webp/decode.js"));
  return { module: pathToFileURL(path.join(dir, "decode.js")).href, wasm: path.join(dir, "codec", "dec", "webp_dec.wasm") };
}

type Decode = (buf: Uint8Array) => Promise<RgbaPixels>;
let loading: Promise<Decode> | null = null;

function decoder(): Promise<Decode> {
  loading ??= (async () => {
    const files = webpDecoderFiles();
    // Loaded by URL at run time: bundlers must not try to pack the wasm glue into the server bundle.
    const mod = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ files.module)) as {
      default: (b: ArrayBuffer) => Promise<RgbaPixels>;
      init: (m: WebAssembly.Module) => Promise<void>;
    };
    await mod.init(await WebAssembly.compile(readFileSync(/* turbopackIgnore: true */ files.wasm)));
    return (buf: Uint8Array) => mod.default(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer);
  })();
  loading.catch(() => (loading = null));
  return loading;
}

/** A WebP file's RGBA pixels; throws when libwebp cannot decode it. */
export async function decodeWebp(buf: Uint8Array): Promise<RgbaPixels> {
  const img = await (await decoder())(buf);
  if (!img || !(img.width > 0) || !(img.height > 0)) throw new Error("libwebp could not decode it");
  return img;
}
