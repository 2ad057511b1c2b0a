"use client";

// Drop a bundle (or choose it with the keyboard), optionally the workbench's public key, and read each check and
// every re-computed score. The file never leaves the browser: a worker unpacks, checks and re-scores it
// (./verify.worker.ts).
import { useRef, useState } from "react";
import type { BundleCheck } from "@/lib/evidence/check";
import type { ScoreCheck } from "@/lib/evidence/compare";
import { ScoreList } from "./score-list";
import { KEY_SOURCE } from "@/lib/evidence/key-input";

type Result = { checks: BundleCheck[]; run: string | null; trusted: boolean; scores?: ScoreCheck[] };

export function BundleVerifier() {
  const [key, setKey] = useState("");
  // a design statement the reader held before the results existed (`fof design`, the run.launched webhook)
  const [design, setDesign] = useState<{ name: string; bytes: ArrayBuffer } | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [name, setName] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const check = async (file: File) => {
    setBusy("unpacking and checking the signature");
    setResult(null);
    setName(file.name);
    const worker = new Worker(new URL("./verify.worker.ts", import.meta.url), { type: "module" });
    const bundle = await file.arrayBuffer();
    worker.onmessage = (e: MessageEvent<Result | { progress: string }>) => {
      if ("progress" in e.data) return setBusy(e.data.progress);
      setResult(e.data);
      setBusy(null);
      worker.terminate();
    };
    worker.onerror = (e) => {
      setResult({ checks: [{ check: "verifier", ok: false, detail: e.message || "the verifier stopped" }], run: null, trusted: false });
      setBusy(null);
      worker.terminate();
    };
    const held = design ? design.bytes.slice(0) : undefined;
    worker.postMessage({ bundle, publicKeyPem: key.trim() || undefined, design: held }, held ? [bundle, held] : [bundle]);
  };
  const ok = result && result.checks.every((c) => c.ok);
  return (
    <div className="space-y-4">
      <label className="block text-sm font-medium" htmlFor="verifier-key">
        The workbench&apos;s public key (optional — without it only integrity is checked)
      </label>
      <p id="verifier-key-help" className="text-xs text-slate-600">
        The PEM from the workbench that signed the bundle —{" "}
        <a className="underline" href={KEY_SOURCE} target="_blank" rel="noreferrer">
          this workbench&apos;s key
        </a>
        , or ask the team for theirs — or the JSON its <code>/.well-known/fof-evidence-key</code> shows.
      </p>
      <textarea
        id="verifier-key"
        value={key}
        onChange={(e) => setKey(e.target.value)}
        rows={4}
        aria-describedby="verifier-key-help"
        className="w-full rounded-md border border-slate-300 p-2 font-mono text-xs"
        placeholder="-----BEGIN PUBLIC KEY-----"
      />
      <label className="block text-sm">
        <span className="font-medium">The run&apos;s design statement you held (optional)</span>{" "}
        <span className="text-slate-500">
          — from <code>fof design RUN</code> or the run.launched webhook, kept before any result existed: the bundle must be that run
        </span>
        <input
          type="file"
          accept=".json,application/json"
          aria-label="Design statement"
          className="mt-1 block text-sm"
          onChange={async (e) => {
            const f = e.target.files?.[0];
            setDesign(f ? { name: f.name, bytes: await f.arrayBuffer() } : null);
          }}
        />
      </label>
      <div
        data-testid="bundle-drop"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          const f = e.dataTransfer.files[0];
          if (f) void check(f);
        }}
        className={`rounded-lg border-2 border-dashed p-6 text-center text-sm ${over ? "border-indigo-500 bg-indigo-50" : "border-slate-300"}`}
      >
        <p>Drop an evidence bundle (.zip) here, or</p>
        <label className="mt-2 inline-block cursor-pointer rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white focus-within:ring-2">
          choose a file
          <input
            ref={input}
            type="file"
            accept=".zip,application/zip"
            className="sr-only"
            aria-label="Evidence bundle"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void check(f);
            }}
          />
        </label>
        <p className="mt-2 text-xs text-slate-500">Checked in this browser: nothing is uploaded.</p>
      </div>
      {busy && (
        <p role="status">
          Checking {name}… <span className="text-slate-500">({busy})</span>
        </p>
      )}
      {result && (
        <section aria-label="Verification" data-testid="verification" className="space-y-2">
          <h2 className={`text-base font-semibold ${ok ? "text-emerald-700" : "text-red-700"}`}>
            {name}:{" "}
            {ok
              ? result.trusted
                ? `verified — ${result.scores?.length ?? 0} values recomputed equal`
                : `integrity and scores hold — ${result.scores?.length ?? 0} values recomputed equal (no key given: who signed is not checked)`
              : "NOT verified"}
          </h2>
          <ul className="space-y-1 text-sm">
            {result.checks.map((c) => (
              <li key={c.check} data-ok={c.ok}>
                {c.ok ? "✓" : "✗"} <b>{c.check}</b>: {c.detail}
              </li>
            ))}
          </ul>
          {result.scores && result.scores.length > 0 && <ScoreList scores={result.scores} />}
        </section>
      )}
    </div>
  );
}
