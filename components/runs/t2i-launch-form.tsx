"use client";

import Link from "next/link";
import { useActionState, useMemo, useState } from "react";
import { launchT2iRun, type LaunchState } from "@/app/runs/new/actions";
import { estimateT2iRun } from "@/lib/engine/estimate";
import { Button } from "@/components/ui/button";
import { ActionForm } from "@/components/ui/action-form";

import { T2I_PRESETS } from "@/lib/engine/presets";

const PRESETS = { paper: T2I_PRESETS.paper.imagesPerPrompt, quick: T2I_PRESETS.quick.imagesPerPrompt, smoke: T2I_PRESETS.smoke.imagesPerPrompt } as const;

export interface T2iLaunchModel {
  slug: string;
  label: string;
  provider: string;
  pricePerImage: number;
  size: string;
  keyMissing: string | null;
}

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-1 text-xs text-rose-700">
      {message}
    </p>
  ) : null;
}

export function T2iLaunchForm({ models }: { models: T2iLaunchModel[] }) {
  const [state, action, pending] = useActionState<LaunchState, FormData>(launchT2iRun, {});
  const [selected, setSelected] = useState<string[]>(models.length === 1 ? [models[0].slug] : []);
  const [tests, setTests] = useState<string[]>(["objective", "subjective"]);
  const [preset, setPreset] = useState<keyof typeof PRESETS | "custom">("quick");
  const [images, setImages] = useState<number>(PRESETS.quick);
  const err = state.fieldErrors ?? {};
  const imagesProblem = !Number.isInteger(images) ? "a whole number" : images < 1 ? "must be ≥ 1" : images > 200 ? "must be ≤ 200" : undefined;
  const estimate = useMemo(
    () => (imagesProblem ? null : estimateT2iRun({ tests, imagesPerPrompt: images }, models.filter((m) => selected.includes(m.slug)))),
    [imagesProblem, tests, images, selected, models],
  );
  const toggle = (list: string[], set: (v: string[]) => void, v: string) => set(list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);

  if (!models.length)
    return (
      <p className="rounded-md border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
        No text-to-image model with an API is registered. Register one on the{" "}
        <Link href="/models" className="text-indigo-700 underline">
          Models page
        </Link>
        , or{" "}
        <Link href="/runs/import" className="text-indigo-700 underline">
          import images
        </Link>{" "}
        made elsewhere.
      </p>
    );

  return (
    <ActionForm action={action} className="space-y-6">
      {state.message && (
        <div role="alert" className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800">
          {state.message}
        </div>
      )}
      <fieldset aria-describedby="models-error">
        <legend className="text-sm font-semibold">Text-to-image models</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {models.map((m) => (
            <label key={m.slug} className="flex items-start gap-2 rounded-md border border-slate-200 bg-white p-2 text-sm has-[:checked]:border-indigo-400">
              <input type="checkbox" name="models" value={m.slug} checked={selected.includes(m.slug)} onChange={() => toggle(selected, setSelected, m.slug)} className="mt-0.5" />
              <span>
                <span className="font-medium">{m.label}</span>
                <span className="block text-xs text-slate-500">
                  {m.slug} · {m.provider} · {m.size} · ${m.pricePerImage}/image
                  {m.keyMissing && <span className="text-rose-700"> · {m.keyMissing}</span>}
                </span>
              </span>
            </label>
          ))}
        </div>
        <FieldError id="models-error" message={err.models} />
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <fieldset>
          <legend className="text-sm font-semibold">Prompts</legend>
          {(["objective", "subjective"] as const).map((t) => (
            <label key={t} className="mt-1 flex items-center gap-2 text-sm capitalize">
              <input type="checkbox" name="tests" value={t} checked={tests.includes(t)} onChange={() => toggle(tests, setTests, t)} /> {t}
            </label>
          ))}
          <FieldError id="tests-error" message={err.tests} />
        </fieldset>
        <div className="text-sm">
          <label htmlFor="t2i-preset" className="font-semibold">
            Preset
          </label>
          <select
            id="t2i-preset"
            name="preset"
            value={preset}
            onChange={(e) => {
              const p = e.target.value as keyof typeof PRESETS | "custom";
              setPreset(p);
              if (p !== "custom") setImages(PRESETS[p]);
            }}
            className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5"
          >
            <option value="smoke">smoke (1 image per prompt)</option>
            <option value="quick">quick (5 per prompt)</option>
            <option value="paper">paper (20 per prompt)</option>
            <option value="custom">custom</option>
          </select>
        </div>
        <div className="text-sm">
          <label htmlFor="t2i-images" className="font-semibold">
            Images per prompt
          </label>
          <input
            id="t2i-images"
            name="imagesPerPrompt"
            type="number"
            min={1}
            max={200}
            step={1}
            value={Number.isNaN(images) ? "" : images}
            aria-invalid={!!(imagesProblem ?? err.imagesPerPrompt)}
            aria-describedby="imagesPerPrompt-error"
            onChange={(e) => {
              setPreset("custom");
              setImages(e.target.value === "" ? NaN : Number(e.target.value));
            }}
            className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5 aria-[invalid=true]:border-rose-500 aria-[invalid=true]:bg-rose-50"
          />
          <FieldError id="imagesPerPrompt-error" message={imagesProblem ?? err.imagesPerPrompt} />
        </div>
        <div className="text-sm">
          <label htmlFor="t2i-budget" className="font-semibold">
            Budget (USD, optional)
          </label>
          <input id="t2i-budget" name="budgetUsd" type="number" min={0} step="0.01" placeholder="no cap" className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5" />
          <FieldError id="budgetUsd-error" message={err.budgetUsd} />
        </div>
      </div>
      <div className="text-sm">
        <label htmlFor="t2i-name" className="font-semibold">
          Name (optional)
        </label>
        <input id="t2i-name" name="name" type="text" maxLength={200} className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5" />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-slate-200 bg-white p-3 text-sm" aria-live="polite">
        {estimate ? (
          <p data-testid="estimate">
            <b className="tabular-nums">{estimate.queries.toLocaleString("en-US")}</b> images ({estimate.perModel.total.toLocaleString("en-US")} per model: 19 statistics × 2 levels ×{" "}
            {tests.length} prompt kind{tests.length === 1 ? "" : "s"} × {images}) · estimated cost <b className="tabular-nums">${estimate.usd.toFixed(2)}</b>
          </p>
        ) : (
          <p data-testid="estimate" className="text-rose-700">
            No estimate: fix the number of images per prompt first.
          </p>
        )}
        <Button type="submit" disabled={pending}>
          {pending ? "Planning…" : "Launch T2I run"}
        </Button>
      </div>
    </ActionForm>
  );
}
