// The browser verifier's worker: the dropped bundle is unpacked and checked here, off the page's thread and on this
// machine only (nothing is uploaded) — sizes read from the archive's directory before anything is inflated, SHA-256
// and Ed25519 through WebCrypto, then the same checks as `fof verify` up to re-scoring (lib/evidence/check.ts).
import { unzipSync } from "fflate";
import { checkBundleFiles } from "@/lib/evidence/check";

const LIMITS = { files: 64, fileBytes: 512 * 1024 ** 2 };
const PUBLIC_KEY_NAME = "signer-public-key.pem";

const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, "0")).join("");
const der = (pem: string) => Uint8Array.from(atob(pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "")), (c) => c.charCodeAt(0));

self.onmessage = async (e: MessageEvent<{ bundle: ArrayBuffer; publicKeyPem?: string }>) => {
  const post = (m: unknown) => (self as unknown as Worker).postMessage(m);
  try {
    let count = 0;
    const big: string[] = [];
    let entries: Record<string, Uint8Array>;
    try {
      entries = unzipSync(new Uint8Array(e.data.bundle), {
        filter: (f) => {
          count++;
          if (f.originalSize > LIMITS.fileBytes) big.push(f.name);
          return count <= LIMITS.files && f.originalSize <= LIMITS.fileBytes;
        },
      });
    } catch (err) {
      return post({
        checks: [{ check: "archive", ok: false, detail: `not a readable zip archive (truncated or corrupt): ${(err as Error).message}` }],
        run: null,
        trusted: false,
      });
    }
    if (count > LIMITS.files || big.length)
      return post({
        checks: [{ check: "archive", ok: false, detail: big.length ? `${big.join(", ")}: over the per-file limit` : "too many files" }],
        run: null,
        trusted: false,
      });
    const r = await checkBundleFiles(
      entries,
      {
        sha256: async (b) => hex(await crypto.subtle.digest("SHA-256", b as BufferSource)),
        verify: async (message, sig, pem) => {
          const key = await crypto.subtle.importKey("spki", der(pem) as BufferSource, { name: "Ed25519" }, false, ["verify"]);
          return crypto.subtle.verify({ name: "Ed25519" }, key, sig as BufferSource, message as BufferSource);
        },
      },
      { publicKeyPem: e.data.publicKeyPem, embeddedKeyName: PUBLIC_KEY_NAME },
    );
    post({ ...r, checks: [{ check: "archive", ok: true, detail: `${Object.keys(entries).length} files` }, ...r.checks] });
  } catch (err) {
    post({ checks: [{ check: "archive", ok: false, detail: (err as Error).message }], run: null, trusted: false });
  }
};
