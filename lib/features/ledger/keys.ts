// The workbench's evidence-signing key: Ed25519, the operator's (FOF_EVIDENCE_KEY_FILE, a PKCS#8 PEM) or one made on
// first use and kept owner-only in the data directory, so the two-command start signs bundles with no setup. Its
// public key is shown on the server and served at /.well-known/fof-evidence-key (a verifier pins it with --key).
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "../../env";
import { keyIdOf } from "../../evidence/dsse";

const FILE = "evidence-signing-key.pem";

function load(pem: string, from: string): KeyObject {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== "ed25519") throw new Error(`${from} holds a ${key.asymmetricKeyType} key: evidence is signed with Ed25519`);
  return key;
}

let cached: { file: string; key: KeyObject } | null = null;

export function signingKey(): KeyObject {
  const configured = env().FOF_EVIDENCE_KEY_FILE;
  const file = configured ? path.resolve(configured) : path.join(env().dataDir, FILE);
  if (cached?.file === file) return cached.key;
  if (!configured && !existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const { privateKey } = generateKeyPairSync("ed25519");
    try {
      // "wx": two processes starting at once keep the first one's key
      writeFileSync(file, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600, flag: "wx" });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    chmodSync(file, 0o600);
  }
  const key = load(readFileSync(file, "utf8"), configured ? "FOF_EVIDENCE_KEY_FILE" : file);
  cached = { file, key };
  return key;
}

export function publicKeyInfo(): { pem: string; keyid: string; algorithm: "ed25519" } {
  const key = signingKey();
  return { pem: createPublicKey(key).export({ type: "spki", format: "pem" }).toString(), keyid: keyIdOf(key), algorithm: "ed25519" };
}
