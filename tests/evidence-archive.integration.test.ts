// One reading of a bundle's archive (lib/evidence/zip.ts): `fof verify` and the browser's /verify read it through the
// same strict reader, which refuses anything but the writer's canonical ZIP — so what they verify is what `unzip`,
// Python's zipfile and file managers extract. The attacks a check found (a second local entry hidden in the slack
// after another entry's deflate stream with the directory pointed at it; a file held twice, the tampered copy first)
// and the other ways one archive can be read two ways are each refused, naming why; and in a differential fuzz of
// ≥ 1,000 random mutations of a genuine bundle the CLI and the browser's code reach the same verdict every time, and
// every "verified" means Python's zipfile extracts exactly the manifest's files.
import { createHash, createPublicKey, verify } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { deflateRawSync } from "node:zlib";
import { unzipSync, zipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-evidence-archive-");
const dir = mkdtempSync(path.join(os.tmpdir(), "fof-archive-"));

const { db, migrateAndSeed } = await import("../lib/db");
const engine = await import("./helpers/services");
const { writeBundle } = await import("../lib/features/evidence/bundle");
const { verifyBundle } = await import("../lib/features/evidence/verify");
const { publicKeyInfo } = await import("../lib/features/ledger/keys");
const { verifyBundleBytes } = await import("../lib/evidence/bundle-bytes");
const { canonicalZip, crc32 } = await import("../lib/evidence/zip");

let bundle = "";
let genuine = new Uint8Array();
let pem = "";
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const nodeCrypto = {
  sha256: async (b: Uint8Array) => sha(b),
  verify: async (message: Uint8Array, sig: Uint8Array, keyPem: string) => verify(null, message, createPublicKey(keyPem), sig),
};
const hasPython = spawnSync("python3", ["-c", "import zipfile"]).status === 0;

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const run = await engine.createRun(db(), { models: ["baseline:calibrated:0.8"], config: engine.presetConfig("smoke", { tests: ["objective"] }), seed: 9 });
  await new engine.Worker(db(), { runId: run.id, pollMs: 20, flushMs: 10 }).run({ untilDone: true });
  bundle = path.join(dir, "audit.zip");
  await writeBundle(db(), run.id, bundle);
  genuine = new Uint8Array(readFileSync(bundle));
  pem = publicKeyInfo().pem;
}, 120_000);

/** The first failing check of each verifier (null: verified), the CLI on a file, the browser's code on the bytes. */
async function verdicts(bytes: Uint8Array, name: string) {
  const file = path.join(dir, `${name}.zip`);
  writeFileSync(file, bytes);
  const cli = await verifyBundle(file, { publicKeyPem: pem });
  const browser = await verifyBundleBytes(bytes, { crypto: nodeCrypto, publicKeyPem: pem });
  // The browser's integrity checks, and the CLI's up to the same point (the re-scoring is the same code, tested apart).
  const integrity = new Set(["archive", "signature", "statement", "manifest", "files", "completeness"]);
  const first = (checks: Array<{ check: string; ok: boolean }>) => checks.find((c) => integrity.has(c.check) && !c.ok)?.check ?? null;
  return { cli: first(cli.checks), browser: first(browser.checks), cliOk: cli.ok, cliChecks: cli.checks, file };
}

/** What Python's zipfile (the central directory's reading, like unzip and file managers) extracts: name → SHA-256. */
function pythonReads(file: string): Record<string, string> | null {
  const r = spawnSync(
    "python3",
    [
      "-c",
      "import sys,zipfile,hashlib,json;z=zipfile.ZipFile(sys.argv[1]);print(json.dumps({i.filename:hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist()}))",
      file,
    ],
    { encoding: "utf8" },
  );
  return r.status === 0 ? (JSON.parse(r.stdout) as Record<string, string>) : null;
}

const u32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getUint32(at, true);
const put32 = (b: Uint8Array, at: number, v: number) => new DataView(b.buffer, b.byteOffset).setUint32(at, v >>> 0, true);
const put16 = (b: Uint8Array, at: number, v: number) => new DataView(b.buffer, b.byteOffset).setUint16(at, v, true);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
/** Offsets of the end record and of each directory entry of a canonical archive. */
function layout(bytes: Uint8Array) {
  const end = bytes.length - 22;
  const cdOffset = u32(bytes, end + 16);
  const entries: Array<{ name: string; cd: number; local: number; nameLen: number; csize: number }> = [];
  for (let at = cdOffset; at < end;) {
    const nameLen = new DataView(bytes.buffer, bytes.byteOffset).getUint16(at + 28, true);
    entries.push({
      name: Buffer.from(bytes.subarray(at + 46, at + 46 + nameLen)).toString(),
      cd: at,
      local: u32(bytes, at + 42),
      nameLen,
      csize: u32(bytes, at + 20),
    });
    at += 46 + nameLen;
  }
  return { end, cdOffset, entries };
}

describe("one reading of the archive", () => {
  it("writes a canonical archive that unzip and Python's zipfile read as the manifest says, and both verifiers verify", async () => {
    const v = await verdicts(genuine, "genuine");
    expect([v.cli, v.browser, v.cliOk]).toEqual([null, null, true]);
    if (hasPython) {
      const manifest = JSON.parse(Buffer.from(unzipSync(genuine)["manifest.json"]!).toString()) as { files: Array<{ path: string; sha256: string }> };
      const read = pythonReads(bundle)!;
      for (const f of manifest.files) expect(read[f.path]).toBe(f.sha256);
    }
    // Re-packing the files canonically gives the very same bytes.
    expect(sha(canonicalZip(Object.entries(unzipSync(genuine))))).toBe(sha(genuine));
  });

  it("refuses a second local entry hidden in an entry's slack with the directory pointed at it (the CLI and the browser alike)", async () => {
    const { entries } = layout(genuine);
    const report = entries.find((e) => e.name === "report.html")!;
    const files = unzipSync(genuine);
    // A forged report, stored as a local entry inside the slack after scores.json's deflate stream.
    const forged = Buffer.from("<!doctype html><p>Every model is fair.</p>");
    const data = deflateRawSync(forged);
    const hidden = new Uint8Array(30 + 11 + data.length);
    put32(hidden, 0, 0x04034b50);
    put16(hidden, 4, 20);
    put16(hidden, 8, 8);
    put16(hidden, 12, 0x21);
    put32(hidden, 14, crc32(forged));
    put32(hidden, 18, data.length);
    put32(hidden, 22, forged.length);
    put16(hidden, 26, 11);
    hidden.set(Buffer.from("report.html"), 30);
    hidden.set(data, 41);
    // Rebuild: every entry as written, scores.json's compressed bytes followed by the hidden entry (its csize grown to
    // cover it in both headers), the directory's report.html pointed at the hidden header.
    const names = Object.keys(files);
    const parts: Uint8Array[] = [];
    const cds: Uint8Array[] = [];
    let offset = 0;
    let hiddenAt = -1;
    for (const name of names) {
      const e = entries.find((x) => x.name === name)!;
      const lh = genuine.slice(e.local, e.local + 30 + e.nameLen);
      let body = genuine.slice(e.local + 30 + e.nameLen, e.local + 30 + e.nameLen + e.csize);
      const cd = genuine.slice(e.cd, e.cd + 46 + e.nameLen);
      if (name === "scores.json") {
        hiddenAt = offset + lh.length + body.length;
        body = concat(body, hidden);
        put32(lh, 18, body.length);
        put32(cd, 20, body.length);
      }
      put32(cd, 42, offset);
      parts.push(lh, body);
      cds.push(cd);
      offset += lh.length + body.length;
    }
    const cdReport = cds[names.indexOf("report.html")]!;
    put32(cdReport, 42, hiddenAt);
    put32(cdReport, 16, crc32(forged));
    put32(cdReport, 20, data.length);
    put32(cdReport, 24, forged.length);
    const cd = concat(...cds);
    const end = genuine.slice(genuine.length - 22);
    put32(end, 12, cd.length);
    put32(end, 16, offset);
    const attack = concat(...parts, cd, end);
    if (hasPython) {
      // Python's zipfile (the directory's reading) would show the forged report…
      writeFileSync(path.join(dir, "hidden.zip"), attack);
      const read = pythonReads(path.join(dir, "hidden.zip"));
      expect(read?.["report.html"]).toBe(sha(forged));
    }
    // …and both verifiers refuse the archive, for its structure.
    const v = await verdicts(attack, "hidden");
    expect([v.cli, v.browser]).toEqual(["archive", "archive"]);
    expect(v.cliChecks[0]!.detail).toMatch(/report\.html|scores\.json/);
    expect(report.name).toBe("report.html");
  });

  it("refuses a file held twice (the tampered copy first), trailing bytes, a comment, gaps, descriptors, extra fields, other names and encodings", async () => {
    const files = Object.entries(unzipSync(genuine));
    const outcomes = files.find(([n]) => n === "outcomes.jsonl")!;
    const twice = canonicalZipUnchecked([[outcomes[0], Buffer.from('{"forged":true}\n')], ...files]);
    const cases: Array<[string, Uint8Array, RegExp]> = [
      ["a file twice", twice, /appears twice/],
      ["bytes after the end record", concat(genuine, Buffer.from("junk")), /does not end with its directory's end record/],
      ["a comment", withComment(genuine, "hi"), /does not end with its directory's end record|comment/],
      ["bytes before the first entry", prefixed(genuine), /not right after the previous entry|bytes before/],
      [
        "another deflate encoding (zipSync, level 9)",
        zipSync(Object.fromEntries(files), { level: 9, mtime: new Date(1980, 0, 1) }),
        /canonical|version, flags|extra/,
      ],
      ["upper-case or path names", canonicalZipUnchecked([...files.slice(1), ["Report.html", Buffer.from("x")]]), /not a bundle's file name/],
    ];
    for (const [what, bytes, why] of cases) {
      const v = await verdicts(bytes, what.replace(/\W+/g, "-"));
      expect([what, v.cli, v.browser]).toEqual([what, "archive", "archive"]);
      expect(v.cliChecks[0]!.detail, what).toMatch(why);
    }
  });

  it("reaches the same verdict in both on what a key holder can re-sign: a byte-order mark, empty tables left out", async () => {
    const { tampered } = await import("./helpers/evidence");
    const { signingKey } = await import("../lib/features/ledger/keys");
    const bom = tampered(
      bundle,
      dir,
      "bom",
      (e) => void (e["run.json"] = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(e["run.json"]!)])),
      signingKey(),
    );
    const bomVerdict = await verdicts(readFileSync(bom), "bom");
    expect(bomVerdict.browser).toBe(bomVerdict.cli);
    const empty = [
      "images.jsonl",
      "faces.jsonl",
      "annotations.jsonl",
      "annotation-values.jsonl",
      "gold-labels.jsonl",
      "annotator-exclusions.jsonl",
      "image-readings.jsonl",
    ];
    const dropped = tampered(
      bundle,
      dir,
      "no-empty-tables",
      (e) => {
        for (const f of empty) delete e[f];
        const m = JSON.parse(Buffer.from(e["manifest.json"]!).toString());
        m.files = m.files.filter((f: { path: string }) => !empty.includes(f.path));
        e["manifest.json"] = Buffer.from(JSON.stringify(m));
      },
      signingKey(),
    );
    const v = await verdicts(readFileSync(dropped), "no-empty-tables");
    expect([v.cli, v.browser]).toEqual(["files", "files"]);
  });

  it("reaches the same verdict in the CLI and in the browser's code on 1,000 random mutations, and a verified one reads the same everywhere", async () => {
    const rng = mulberry32(20261207);
    const pick = (n: number) => Math.floor(rng() * n);
    const { entries } = layout(genuine);
    const mutants: Array<[string, Uint8Array]> = [["unchanged", genuine]];
    for (let i = 0; i < 1000; i++) {
      const kind = pick(7);
      const b = genuine.slice();
      if (kind === 0) for (let k = 0, n = 1 + pick(4); k < n; k++) b[pick(b.length)] ^= 1 << pick(8);
      else if (kind === 1) mutants.push([`truncate-${i}`, genuine.slice(0, pick(genuine.length))]);
      else if (kind === 2) {
        const at = pick(genuine.length);
        mutants.push([
          `insert-${i}`,
          concat(
            genuine.slice(0, at),
            Uint8Array.from({ length: 1 + pick(40) }, () => pick(256)),
            genuine.slice(at),
          ),
        ]);
      } else if (kind === 3) {
        // an entry's bytes duplicated (local header and data) right after it
        const e = entries[pick(entries.length)]!;
        const block = genuine.slice(e.local, e.local + 30 + e.nameLen + e.csize);
        const at = e.local + block.length;
        mutants.push([`duplicate-${i}`, concat(genuine.slice(0, at), block, genuine.slice(at))]);
      } else if (kind === 4) {
        // the files re-packed in another order (a canonical archive: the same files, so a fine reading)
        const files = Object.entries(unzipSync(genuine)).sort(() => rng() - 0.5);
        mutants.push([`reorder-${i}`, canonicalZip(files)]);
      } else if (kind === 5) {
        // a header field changed: a directory entry's or a local header's
        const e = entries[pick(entries.length)]!;
        const at = (rng() < 0.5 ? e.cd + 4 : e.local + 4) + pick(26);
        b[at] = (b[at]! + 1 + pick(255)) & 0xff;
      } else {
        // an entry split in two: its data cut at a point, the rest as a new entry of another name
        const files = Object.entries(unzipSync(genuine));
        const k = pick(files.length);
        const [name, data] = files[k]!;
        const cut = pick(data.length + 1);
        files.splice(k, 1, [name, data.slice(0, cut)], [`${name}.part`, data.slice(cut)]);
        mutants.push([`split-${i}`, canonicalZipUnchecked(files)]);
      }
      if (kind === 0 || kind === 5) mutants.push([`${kind === 0 ? "flip" : "field"}-${i}`, b]);
    }
    expect(mutants.length).toBeGreaterThan(1000);
    let verified = 0;
    const disagreements: string[] = [];
    for (const [name, bytes] of mutants) {
      const v = await verdicts(bytes, "mutant");
      if (v.cli !== v.browser) disagreements.push(`${name}: CLI ${v.cli ?? "verified"}, browser ${v.browser ?? "verified"}`);
      if (v.cli === null && v.cliOk) {
        verified++;
        if (hasPython) {
          const manifest = JSON.parse(Buffer.from(unzipSync(bytes)["manifest.json"]!).toString()) as { files: Array<{ path: string; sha256: string }> };
          const read = pythonReads(v.file);
          expect(read, name).not.toBeNull();
          for (const f of manifest.files) expect(read![f.path], `${name}: ${f.path}`).toBe(f.sha256);
          expect(Object.keys(read!).sort()).toEqual([...manifest.files.map((f) => f.path), "manifest.json", "attestation.dsse.json"].sort());
        }
      }
    }
    expect(disagreements).toEqual([]);
    // the genuine bundle, and the re-orderings (the same files, canonically packed), are the verified ones
    expect(verified).toBeGreaterThanOrEqual(1);
  }, 600_000);
});

/** A canonical archive of any names (the writer refuses names the reader would): for crafting refusals. */
function canonicalZipUnchecked(files: ReadonlyArray<readonly [string, Uint8Array]>) {
  const safe = files.map(([_n, b], i) => [`f${i}`, b] as const);
  const zip = canonicalZip(safe);
  // put the real names back, fixing the offsets and sizes the longer or shorter names change
  const parts: Uint8Array[] = [];
  const cds: Uint8Array[] = [];
  let offset = 0;
  const { entries, end } = layout(zip);
  entries.forEach((e, i) => {
    const name = Buffer.from(files[i]![0]);
    const lh = concat(zip.slice(e.local, e.local + 30), name);
    put16(lh, 26, name.length);
    const body = zip.slice(e.local + 30 + e.nameLen, e.local + 30 + e.nameLen + e.csize);
    const cd = concat(zip.slice(e.cd, e.cd + 46), name);
    put16(cd, 28, name.length);
    put32(cd, 42, offset);
    parts.push(lh, body);
    cds.push(cd);
    offset += lh.length + body.length;
  });
  const cd = concat(...cds);
  const tail = zip.slice(end);
  put32(tail, 12, cd.length);
  put32(tail, 16, offset);
  return concat(...parts, cd, tail);
}

function withComment(zip: Uint8Array, comment: string) {
  const out = concat(zip, Buffer.from(comment));
  put16(out, zip.length - 2, comment.length);
  return out;
}

/** Bytes before the first entry, every offset shifted to match (a "self-extracting" prefix). */
function prefixed(zip: Uint8Array) {
  const pad = Buffer.from("MZ-prefix");
  const out = concat(pad, zip);
  const { entries, end } = layout(out.subarray(pad.length));
  for (const e of entries) put32(out, pad.length + e.cd + 42, e.local + pad.length);
  put32(out, pad.length + end + 16, u32(out, pad.length + end + 16) + pad.length);
  return out;
}

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
