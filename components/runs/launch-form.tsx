"use client";

import { useActionState, useMemo, useState } from "react";
import { launchRun, type LaunchState } from "@/app/runs/new/actions";
import { estimateRun } from "@/lib/engine/estimate";
import { Button } from "@/components/ui/button";
import { ActionForm } from "@/components/ui/action-form";

import { PRESETS } from "@/lib/engine/presets";
import { CONTEXTS as CONTEXT_IDS, CONTEXT_LABELS } from "@/lib/benchmark/labels";

const CONTEXTS = CONTEXT_IDS.map((c) => [c, CONTEXT_LABELS[c]] as const);

export interface LaunchModel {
  slug: string;
  label: string;
  provider: string;
  priceInputPer1k: number;
  priceOutputPer1k: number;
  keyMissing: string | null;
}

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-1 text-xs text-rose-700">
      {message}
    </p>
  ) : null;
}

export function LaunchForm({ models, defaultSeed }: { models: LaunchModel[]; defaultSeed: number }) {
  const [state, action, pending] = useActionState<LaunchState, FormData>(launchRun, {});
  const [selected, setSelected] = useState<string[]>(models.filter((m) => m.slug === "baseline:calibrated:0.8").map((m) => m.slug));
  const [tests, setTests] = useState<string[]>(["objective", "subjective"]);
  const [contexts, setContexts] = useState<string[]>(CONTEXTS.map(([c]) => c));
  const [preset, setPreset] = useState<keyof typeof PRESETS | "custom">("quick");
  const [repeats, setRepeats] = useState<{ objectiveRepeats: number; subjectiveRepeats: number }>({ ...PRESETS.quick });
  const err = state.fieldErrors ?? {};

  // Repeats the server would refuse give no estimate (never a negative or absurd count), and the field says why.
  const repeatProblem = (v: number) => (!Number.isInteger(v) ? "a whole number" : v < 1 ? "must be ≥ 1" : v > 1000 ? "must be ≤ 1000" : null);
  const localErr: Record<string, string | undefined> = {
    objectiveRepeats: tests.includes("objective") ? (repeatProblem(repeats.objectiveRepeats) ?? undefined) : undefined,
    subjectiveRepeats: tests.includes("subjective") ? (repeatProblem(repeats.subjectiveRepeats) ?? undefined) : undefined,
  };
  const valid = !localErr.objectiveRepeats && !localErr.subjectiveRepeats;
  const estimate = useMemo(
    () =>
      valid
        ? estimateRun(
            { tests: tests as never, contexts: contexts as never, ...repeats },
            models.filter((m) => selected.includes(m.slug)),
          )
        : null,
    [valid, tests, contexts, repeats, selected, models],
  );
  const toggle = (list: string[], set: (v: string[]) => void, v: string) => set(list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);

  return (
    <ActionForm action={action} className="space-y-6">
      {state.message && (
        <div role="alert" className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800">
          {state.message}
        </div>
      )}
      <fieldset aria-describedby="models-error">
        <legend className="text-sm font-semibold">Models</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {models.map((m) => (
            <label key={m.slug} className="flex items-start gap-2 rounded-md border border-slate-200 bg-white p-2 text-sm has-[:checked]:border-indigo-400">
              <input type="checkbox" name="models" value={m.slug} checked={selected.includes(m.slug)} onChange={() => toggle(selected, setSelected, m.slug)} className="mt-0.5" />
              <span>
                <span className="font-medium">{m.label}</span>
                <span className="block text-xs text-slate-500">
                  {m.slug} · {m.provider}
                  {m.keyMissing && <span className="text-rose-700"> · {m.keyMissing}</span>}
                </span>
              </span>
            </label>
          ))}
        </div>
        <FieldError id="models-error" message={err.models} />
      </fieldset>

      <div className="grid gap-6 md:grid-cols-2">
        <fieldset>
          <legend className="text-sm font-semibold">Tests</legend>
          {(["objective", "subjective"] as const).map((t) => (
            <label key={t} className="mt-1 flex items-center gap-2 text-sm capitalize">
              <input type="checkbox" name="tests" value={t} checked={tests.includes(t)} onChange={() => toggle(tests, setTests, t)} /> {t}
            </label>
          ))}
          <FieldError id="tests-error" message={err.tests} />
        </fieldset>
        <fieldset disabled={!tests.includes("subjective")}>
          <legend className="text-sm font-semibold">Subjective contexts</legend>
          {CONTEXTS.map(([c, label]) => (
            <label key={c} className="mt-1 flex items-center gap-2 text-sm">
              <input type="checkbox" name="contexts" value={c} checked={contexts.includes(c)} onChange={() => toggle(contexts, setContexts, c)} /> {label}
            </label>
          ))}
          <FieldError id="contexts-error" message={err.contexts} />
        </fieldset>
      </div>

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        <label className="text-sm">
          <span className="font-semibold">Preset</span>
          <select
            name="preset"
            value={preset}
            onChange={(e) => {
              const p = e.target.value as keyof typeof PRESETS | "custom";
              setPreset(p);
              if (p !== "custom") setRepeats({ ...PRESETS[p] });
            }}
            className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5"
          >
            <option value="smoke">smoke (1 / 1)</option>
            <option value="quick">quick (20 / 10)</option>
            <option value="paper">paper (3 / 100)</option>
            <option value="custom">custom</option>
          </select>
        </label>
        {(["objectiveRepeats", "subjectiveRepeats"] as const).map((k) => (
          <label key={k} className="text-sm">
            <span className="font-semibold">{k === "objectiveRepeats" ? "Objective repeats" : "Subjective repeats"}</span>
            <input
              name={k}
              type="number"
              min={1}
              max={1000}
              step={1}
              value={Number.isNaN(repeats[k]) ? "" : repeats[k]}
              aria-invalid={!!(localErr[k] ?? err[k])}
              aria-describedby={`${k}-error`}
              onChange={(e) => {
                setPreset("custom");
                setRepeats({ ...repeats, [k]: e.target.value === "" ? NaN : Number(e.target.value) });
              }}
              className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5 aria-[invalid=true]:border-rose-500 aria-[invalid=true]:bg-rose-50"
            />
            <FieldError id={`${k}-error`} message={localErr[k] ?? err[k]} />
          </label>
        ))}
        <label className="text-sm">
          <span className="font-semibold">Seed</span>
          <input name="seed" type="number" min={0} defaultValue={defaultSeed} aria-invalid={!!err.seed} aria-describedby="seed-error" className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5 aria-[invalid=true]:border-rose-500 aria-[invalid=true]:bg-rose-50" />
          <FieldError id="seed-error" message={err.seed} />
        </label>
        <label className="text-sm">
          <span className="font-semibold">Budget (USD, optional)</span>
          <input name="budgetUsd" type="number" min={0} step="0.01" placeholder="no cap" aria-invalid={!!err.budgetUsd} aria-describedby="budgetUsd-error" className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5 aria-[invalid=true]:border-rose-500 aria-[invalid=true]:bg-rose-50" />
          <FieldError id="budgetUsd-error" message={err.budgetUsd} />
        </label>
      </div>
      <label className="block text-sm">
        <span className="font-semibold">Name (optional)</span>
        <input name="name" type="text" maxLength={200} className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5" />
      </label>

      <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-slate-200 bg-white p-3 text-sm" aria-live="polite">
        {estimate ? (
          <p data-testid="estimate">
            <b className="tabular-nums">{estimate.queries.toLocaleString("en-US")}</b> queries ({estimate.perModel.objective.toLocaleString("en-US")} objective +{" "}
            {estimate.perModel.subjective.toLocaleString("en-US")} subjective per model) · estimated cost{" "}
            <b className="tabular-nums">${estimate.usd.toFixed(2)}</b>
            <span className="text-slate-500"> (typical tokens × the models&apos; prices)</span>
          </p>
        ) : (
          <p data-testid="estimate" className="text-rose-700">
            No estimate: fix the highlighted repeats first.
          </p>
        )}
        <Button type="submit" disabled={pending}>
          {pending ? "Planning…" : "Launch run"}
        </Button>
      </div>
    </ActionForm>
  );
}
