"use client";
// The Label page for a run launched with CLIP (a suite's own instrument): the server's vision tower and text-embedding
// file, checked as the label workers check them (the tower's shapes, the file's schema, one embedding size, the tower
// the texts were exported with), then a lease / read / save loop: each whole image through the same pipeline module
// as the workers (lib/faces/clip.ts), its softmax per text group (lib/faces/clip-texts.ts) posted raw.
import { useEffect, useRef, useState } from "react";
import { clipEmbed, clipVisionLayout, type ClipVisionLayout } from "@/lib/faces/clip";
import { clipTextFileSchema, missingTexts, zeroShot, type ClipGroups, type ClipTextFile } from "@/lib/faces/clip-texts";
import { decode, fetchBytes, loadOrt, postJson, sha256Hex, type Ort, type Session } from "@/components/faces/runtime";

const BATCH = 8;

interface Loaded {
  ort: Ort;
  session: Session;
  layout: ClipVisionLayout;
  sha256: string;
  texts: ClipTextFile;
  textsSha256: string;
}

export type ClipPhase = "loading" | "ready" | "running" | "done" | "error";

export function useClipLabelling(runId: string, initialTodo: number) {
  const loaded = useRef<Loaded | null>(null);
  const running = useRef(false);
  const [phase, setPhase] = useState<ClipPhase>("loading");
  const [message, setMessage] = useState<string | null>(null);
  const [model, setModel] = useState<string | null>(null);
  const [stats, setStats] = useState({ images: 0, todo: initialTodo, activeMs: 0 });

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const ort = await loadOrt();
        const res = await fetch("/api/face-models/clipTexts");
        if (!res.ok) throw new Error(((await res.json().catch(() => ({}))) as { error?: string }).error ?? `CLIP text file: HTTP ${res.status}`);
        const textBytes = await res.arrayBuffer();
        const parsed = clipTextFileSchema.safeParse(JSON.parse(new TextDecoder().decode(textBytes)));
        if (!parsed.success) throw new Error(`the server's CLIP text file is not valid: ${parsed.error.issues[0]?.message}`);
        const visionBytes = await fetchBytes("/api/face-models/clipVision");
        const session = await ort.InferenceSession.create(new Uint8Array(visionBytes), { executionProviders: ["wasm"] });
        const layout = clipVisionLayout(session);
        const sha256 = await sha256Hex(visionBytes);
        if (layout.dim !== parsed.data.dim)
          throw new Error(`the vision tower gives ${layout.dim}-value embeddings; the text file was made for ${parsed.data.dim}`);
        if (parsed.data.visionSha256 && parsed.data.visionSha256 !== sha256) throw new Error("the text file was exported with another vision tower");
        if (cancelled) return;
        loaded.current = { ort, session, layout, sha256, texts: parsed.data, textsSha256: await sha256Hex(textBytes) };
        setModel(`${parsed.data.model} · tower sha256 ${sha256.slice(0, 12)}… · ${layout.dim}-d`);
        setPhase("ready");
      } catch (e) {
        if (!cancelled) {
          setPhase("error");
          setMessage(`Could not start CLIP: ${(e as Error).message}`);
        }
      }
    })();
    return () => {
      cancelled = true;
    };
  }, []);

  async function start() {
    const l = loaded.current;
    if (!l) return;
    running.current = true;
    setPhase("running");
    setMessage(null);
    let held: string | null = null;
    try {
      while (running.current) {
        const lease = await postJson<{
          lease: string;
          images: Array<{ id: string; url: string; suiteId: string }>;
          clipGroups?: Record<string, ClipGroups>;
          remaining: number;
        }>("/api/label/lease", { runId, instrument: "clip", max: BATCH });
        setStats((s) => ({ ...s, todo: lease.remaining }));
        if (!lease.images.length) {
          setPhase("done");
          return;
        }
        held = lease.lease;
        const t0 = performance.now();
        const results = [];
        for (const im of lease.images) {
          const groups = lease.clipGroups?.[im.suiteId];
          if (!groups) throw new Error(`no CLIP groups for ${im.suiteId}`);
          const missing = missingTexts(l.texts, groups);
          if (missing.length) throw new Error(`the text file lacks "${missing[0]}"`);
          const [embedding] = await clipEmbed(l.ort, l.session, l.layout, [await decode(im.url)]);
          results.push({ imageId: im.id, groups: zeroShot(l.texts, embedding, groups) });
        }
        const saved = await postJson<{ saved: number; refused: string[] }>("/api/label/readings", {
          lease: lease.lease,
          model: { model: "clip-vit-l14-vision", sha256: l.sha256 },
          texts: { sha256: l.textsSha256, weightsSha256: l.texts.weightsSha256 },
          runtime: "browser-wasm",
          results,
        });
        held = null;
        const ms = performance.now() - t0;
        setStats((s) => ({ images: s.images + saved.saved, todo: Math.max(0, s.todo - saved.saved), activeMs: s.activeMs + ms }));
      }
      setPhase("ready");
    } catch (e) {
      // The batch in hand goes back at once, for another labeller (or a retry) to read.
      if (held) await postJson("/api/label/release", { leases: [held] }).catch(() => undefined);
      setPhase("error");
      setMessage(`Reading stopped: ${(e as Error).message}`);
    } finally {
      running.current = false;
    }
  }

  return { phase, message, model, stats, start, pause: () => (running.current = false) };
}
