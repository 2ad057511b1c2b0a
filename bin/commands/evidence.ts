// `fof bundle <run> -o audit.zip` writes a run's signed evidence bundle from the local database; `fof verify
// <bundle> [--key pub.pem]` checks one anywhere, with no server and no data directory (a scratch database of its own
// in a temporary folder), and exits 0 only when the signature, every file, completeness and every recomputed score
// hold; `fof evidence-key` prints the public key bundles are signed with. docs/evidence.md.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export async function bundleCommand(runId: string, opts: { output?: string }) {
  const { db, migrateAndSeed } = await import("../../lib/db");
  await migrateAndSeed({ quiet: true });
  const prisma = db();
  try {
    const { writeBundle } = await import("../../lib/features/evidence/bundle");
    const out = path.resolve(opts.output ?? `${runId}.evidence.zip`);
    const r = await writeBundle(prisma, runId, out);
    const { publicKeyInfo } = await import("../../lib/features/ledger/keys");
    process.stdout.write(`${out}: ${r.bytes.toLocaleString("en-US")} bytes, ${r.manifest.files.length} files, signed by key ${publicKeyInfo().keyid}\n`);
  } finally {
    await prisma.$disconnect();
  }
}

export async function verifyCommand(file: string, opts: { key?: string; json?: boolean; design?: string }) {
  // No data directory is read or made: anything the database layer would touch lives in a temporary folder.
  const scratch = mkdtempSync(path.join(os.tmpdir(), "fof-verify-home-"));
  process.env.FOF_DATA_DIR = scratch;
  try {
    const { verifyBundle } = await import("../../lib/features/evidence/verify");
    const r = await verifyBundle(file, {
      publicKeyPem: opts.key ? readFileSync(opts.key, "utf8") : undefined,
      heldDesign: opts.design ? new Uint8Array(readFileSync(opts.design)) : undefined,
    });
    if (opts.json) process.stdout.write(`${JSON.stringify(r)}\n`);
    else {
      for (const c of r.checks) process.stdout.write(`${c.ok ? "✓" : "✗"} ${c.check}: ${c.detail}\n`);
      for (const s of r.scores)
        process.stdout.write(
          `  ${s.equal ? "=" : "≠"} ${s.path} ${JSON.stringify(s.stated)}${s.equal ? "" : ` (recomputed ${JSON.stringify(s.recomputed)})`}\n`,
        );
      process.stdout.write(r.ok ? `${file}: verified — ${r.scores.length} values recomputed equal\n` : `${file}: NOT verified\n`);
    }
    if (!r.ok) process.exitCode = 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export async function evidenceKeyCommand(opts: { json?: boolean }) {
  const { publicKeyInfo } = await import("../../lib/features/ledger/keys");
  const k = publicKeyInfo();
  process.stdout.write(opts.json ? `${JSON.stringify(k)}\n` : k.pem);
}
