"use client";

// The launch form of a suite that declares its fields (lib/suites/types.ts LaunchField): presets fill the fields,
// the server validates with the suite's schema and names the field at fault.
import { useActionState, useDeferredValue, useEffect, useRef, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { configFromForm } from "@/lib/suites/launch-config";
import type { SuiteEstimate } from "@/lib/suites/estimate";
import { launchSuiteRun, type LaunchState } from "@/app/runs/new/actions";
import { Button } from "@/components/ui/button";
import { ActionForm } from "@/components/ui/action-form";
import type { LaunchField } from "@/lib/suites/types";
import { Input, Select } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";
import { EstimateLine } from "./estimate-line";
import { useModelChoice } from "./use-model-choice";
import { ReuseAnswersFields } from "./reuse-answers-fields";

export interface SuiteLaunchModel {
  slug: string;
  label: string;
  keyMissing: string | null;
  pricePerImage?: number;
}

type Values = Record<string, string[] | number | boolean | string | null>;

export function SuiteLaunchForm(props: {
  suite: { id: string; name: string };
  /** which of the suite's forms (LaunchVariant): its id, the button's text after "Launch ", the values it fixes */
  variant: { id: string; button: string; fixed?: Record<string, unknown> };
  fields: readonly LaunchField[];
  presets: Record<string, { label: string; config: Values }>;
  models: SuiteLaunchModel[];
  helpers: SuiteLaunchModel[];
  defaultPreset: string;
  /** the suite's content versions (today's shipped one first); more than one → a choice; `limits`: the choices it allows */
  contents?: Array<{ version: string; label: string; limits?: Record<string, string[]> }>;
  /** what is left of the viewer's spending limit (null: no limit) */
  spendingLeft?: number | null;
  /** text-to-image forms: "label automatically", with how many label workers are alive now */
  autoLabel?: { workers: number } | null;
  /** when this form's runs can stop on a target (adaptive runs; the preset is then the cap): the suite's scores */
  adaptive?: { ids: string[]; names: string[]; decided: boolean } | null;
}) {
  const [state, action, pending] = useActionState<LaunchState, FormData>(launchSuiteRun, {});
  const models = useModelChoice(props.suite.id, props.variant, props.models);
  const [preset, setPreset] = useState(props.defaultPreset);
  const [values, setValues] = useState<Values>(() => ({ ...props.presets[props.defaultPreset]?.config }));
  const err = (name: string) => state.fieldErrors?.[name];
  // the content chosen, and what it allows of each field of choices (a set that declares only the baseline context)
  const [content, setContent] = useState(props.contents?.[0]?.version ?? null);
  const limits = props.contents?.find((c) => c.version === content)?.limits;
  // The estimate follows the form: read it whole (as the server action will) whenever it changes.
  const formRef = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState<string | null>(null);
  const [budget, setBudget] = useState<number | null>(null);
  const readForm = () => {
    const f = formRef.current;
    if (!f) return;
    const data = new FormData(f);
    setDraft(
      JSON.stringify({
        models: data.getAll("models").map(String),
        config: configFromForm(props.fields, data, props.variant.fixed),
        ...(data.get("contentVersion") ? { contentVersion: String(data.get("contentVersion")) } : {}),
      }),
    );
    const b = Number(data.get("budgetUsd"));
    setBudget(data.get("budgetUsd") && Number.isFinite(b) && b > 0 ? b : null);
  };
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(readForm, [values, preset, models.chosen]);
  const deferred = useDeferredValue(draft);
  const estimate = useQuery({
    queryKey: ["suite-estimate", props.suite.id, deferred],
    enabled: !!deferred,
    placeholderData: keepPreviousData,
    retry: 0,
    queryFn: async (): Promise<SuiteEstimate> => {
      const res = await fetch(`/api/suites/${props.suite.id}/estimate`, { method: "POST", headers: { "content-type": "application/json" }, body: deferred! });
      const body = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error((body as { error?: string }).error ?? `HTTP ${res.status}`);
      return body as SuiteEstimate;
    },
  });
  const set = (name: string, v: Values[string]) => {
    setPreset("custom");
    setValues((old) => ({ ...old, [name]: v }));
  };
  return (
    <ActionForm
      action={(data: FormData) => {
        models.remember();
        return action(data);
      }}
      ref={formRef}
      onChange={readForm}
      className="space-y-5"
      aria-label={`Launch a ${props.suite.name} run`}
    >
      <Input type="hidden" name="suite" value={props.suite.id} />
      <Input type="hidden" name="variant" value={props.variant.id} />
      <Input type="hidden" name="preset" value={preset} />
      <fieldset>
        <legend className="text-sm font-semibold">Models under audit</legend>
        {props.models.length === 0 && <p className="text-sm text-slate-500">No model of this kind is registered: add one on the Models page.</p>}
        <ul className="mt-1 space-y-1">
          {props.models.map((m) => (
            <li key={m.slug}>
              <label className="flex items-center gap-2 text-sm">
                <Input
                  type="checkbox"
                  name="models"
                  value={m.slug}
                  checked={models.chosen.includes(m.slug)}
                  onChange={(e) => models.toggle(m.slug, e.target.checked)}
                />
                {m.label} <span className="text-xs text-slate-500">{m.slug}</span>
                {m.keyMissing && <span className="text-xs text-amber-700">({m.keyMissing})</span>}
              </label>
            </li>
          ))}
        </ul>
        {err("models") && <p className="text-xs text-red-700">{err("models")}</p>}
      </fieldset>
      <label className="flex flex-col gap-1 text-sm">
        Preset
        <Select
          value={preset}
          onChange={(e) => {
            setPreset(e.target.value);
            if (props.presets[e.target.value]) setValues({ ...props.presets[e.target.value].config });
          }}
          className="w-60 rounded-md border border-slate-300 px-2 py-1"
        >
          {Object.entries(props.presets).map(([k, p]) => (
            <option key={k} value={k}>
              {p.label}
            </option>
          ))}
          <option value="custom">custom</option>
        </Select>
      </label>
      {props.fields.map((f) => {
        const invalid = !!err(f.name);
        if (f.kind === "choices")
          return (
            <fieldset key={f.name} aria-invalid={invalid}>
              <legend className="text-sm font-semibold">{f.label}</legend>
              <div className="mt-1 flex flex-wrap gap-4">
                {f.options
                  .filter((o) => !limits?.[f.name] || limits[f.name].includes(o.value))
                  .map((o) => {
                    const chosen = Array.isArray(values[f.name]) && (values[f.name] as string[]).includes(o.value);
                    return (
                      <label key={o.value} className="flex items-center gap-2 text-sm" title={o.hint}>
                        <Input
                          type="checkbox"
                          name={f.name}
                          value={o.value}
                          checked={chosen}
                          onChange={(e) => {
                            const cur = Array.isArray(values[f.name]) ? (values[f.name] as string[]) : [];
                            set(f.name, e.target.checked ? [...cur, o.value] : cur.filter((x) => x !== o.value));
                          }}
                        />
                        {o.label}
                      </label>
                    );
                  })}
              </div>
              {limits?.[f.name] && limits[f.name].length < f.options.length && (
                <p className="text-xs text-slate-500">
                  {content} declares {limits[f.name].join(", ")}: the other {f.label.toLowerCase()} are not offered.
                </p>
              )}
              {invalid && <p className="text-xs text-red-700">{err(f.name)}</p>}
            </fieldset>
          );
        if (f.kind === "number")
          return (
            <label key={f.name} className="flex flex-col gap-1 text-sm">
              {f.label}
              <Input
                type="number"
                name={f.name}
                min={f.min}
                max={f.max}
                value={typeof values[f.name] === "number" ? (values[f.name] as number) : ""}
                onChange={(e) => set(f.name, e.target.value === "" ? null : Number(e.target.value))}
                aria-invalid={invalid}
                className={`w-40 rounded-md border px-2 py-1 ${invalid ? "border-red-500" : "border-slate-300"}`}
              />
              {f.help && <span className="text-xs text-slate-500">{f.help}</span>}
              {invalid && <span className="text-xs text-red-700">{err(f.name)}</span>}
            </label>
          );
        if (f.kind === "select")
          return (
            <label key={f.name} className="flex flex-col gap-1 text-sm">
              {f.label}
              <Select
                name={f.name}
                value={(values[f.name] as string | null) ?? f.options[0]?.value ?? ""}
                onChange={(e) => set(f.name, e.target.value)}
                aria-invalid={invalid}
                className={`w-96 rounded-md border px-2 py-1 ${invalid ? "border-red-500" : "border-slate-300"}`}
              >
                {f.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </Select>
              {f.help && <span className="text-xs text-slate-500">{f.help}</span>}
              {invalid && <span className="text-xs text-red-700">{err(f.name)}</span>}
            </label>
          );
        if (f.kind === "toggle")
          return (
            <label key={f.name} className="flex items-center gap-2 text-sm">
              <Input type="checkbox" name={f.name} checked={!!values[f.name]} onChange={(e) => set(f.name, e.target.checked)} />
              {f.label}
              {f.help && <span className="text-xs text-slate-500">{f.help}</span>}
            </label>
          );
        return (
          <label key={f.name} className="flex flex-col gap-1 text-sm">
            {f.label}
            <Select
              name={f.name}
              value={(values[f.name] as string | null) ?? ""}
              onChange={(e) => set(f.name, e.target.value || null)}
              aria-invalid={invalid}
              className={`w-80 rounded-md border px-2 py-1 ${invalid ? "border-red-500" : "border-slate-300"}`}
            >
              <option value="">none</option>
              {props.helpers.map((m) => (
                <option key={m.slug} value={m.slug}>
                  {m.label}
                  {m.keyMissing ? ` (${m.keyMissing})` : ""}
                </option>
              ))}
            </Select>
            {f.help && <span className="text-xs text-slate-500">{f.help}</span>}
            {invalid && <span className="text-xs text-red-700">{err(f.name)}</span>}
          </label>
        );
      })}
      {props.contents && props.contents.length > 1 && (
        <label className="flex flex-col gap-1 text-sm">
          Content
          <Select
            name="contentVersion"
            defaultValue={props.contents[0].version}
            onChange={(e) => setContent(e.target.value)}
            aria-invalid={!!err("contentVersion")}
            className="w-full max-w-xl rounded-md border border-slate-300 px-2 py-1"
          >
            {props.contents.map((c) => (
              <option key={c.version} value={c.version}>
                {c.label}
              </option>
            ))}
          </Select>
          <span className="text-xs text-slate-500">the entries the run is planned on; the run is scored from the version it was planned with</span>
          {err("contentVersion") && <span className="text-xs text-red-700">{err("contentVersion")}</span>}
        </label>
      )}
      <div className="flex flex-wrap gap-4">
        <label className="flex flex-col gap-1 text-sm">
          Seed
          <Input
            type="number"
            name="seed"
            defaultValue={1}
            min={0}
            aria-invalid={!!err("seed")}
            className={`w-32 rounded-md border px-2 py-1 ${err("seed") ? "border-red-500" : "border-slate-300"}`}
          />
          {err("seed") && <span className="text-xs text-red-700">{err("seed")}</span>}
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Budget (USD, optional)
          <Input
            type="number"
            name="budgetUsd"
            step="0.01"
            min={0}
            aria-invalid={!!err("budgetUsd")}
            className={`w-32 rounded-md border px-2 py-1 ${err("budgetUsd") ? "border-red-500" : "border-slate-300"}`}
          />
          {err("budgetUsd") && <span className="text-xs text-red-700">{err("budgetUsd")}</span>}
        </label>
        {props.adaptive && (
          <div className="flex flex-col gap-1 text-sm">
            {/* The help stays outside the label: the field's accessible name is "Stop when (optional)" alone. */}
            <label className="flex flex-col gap-1">
              Stop when (optional)
              <Input
                type="text"
                name="until"
                maxLength={200}
                placeholder="halfwidth<=0.05"
                aria-describedby="until-help"
                aria-invalid={!!err("until")}
                className={`w-56 rounded-md border px-2 py-1 font-mono ${err("until") ? "border-red-500" : "border-slate-300"}`}
              />
            </label>
            <span id="until-help" className="max-w-xs text-xs text-slate-500">
              Adaptive: the chosen size becomes a cap. <code>halfwidth&lt;=0.05</code> stops when every score ({props.adaptive.names.join(", ")}) of every group
              it looks at — the subjective groups of a chat run, every group of an image run — is known to ±0.05, <code>{props.adaptive.ids[0]}&lt;=0.03</code>{" "}
              targets one
              {props.adaptive.decided ? (
                <>
                  ; <code>decided:{props.adaptive.ids.slice(0, 2).join(",")}</code> stops when each model vs the first is decided
                </>
              ) : null}
              . Its intervals stay valid however often you look{props.autoLabel ? "; its images are labelled automatically and each look waits for them" : ""}.
            </span>
            {err("until") && <span className="text-xs text-red-700">{err("until")}</span>}
          </div>
        )}
        <label className="flex flex-col gap-1 text-sm">
          Name (optional)
          <Input type="text" name="name" maxLength={200} className="w-72 rounded-md border border-slate-300 px-2 py-1" />
        </label>
      </div>
      <ReuseAnswersFields err={err} />
      {props.autoLabel && (
        <label className="flex items-start gap-2 text-sm">
          <Input type="checkbox" name="autoLabel" defaultChecked={props.autoLabel.workers > 0} className="mt-1" />
          <span>
            Label automatically
            <span className="block text-xs text-slate-500">
              {props.autoLabel.workers > 0
                ? `${props.autoLabel.workers} label worker${props.autoLabel.workers === 1 ? " is" : "s are"} running: faces are labelled as images arrive, and the run is scored without anyone opening the Label page. Reviewers still correct labels.`
                : "No label worker is running now: the images wait until one starts (FOF_WORKER_LABEL=on, or `fof worker --label`), or until someone labels them on the Label page."}
            </span>
          </span>
        </label>
      )}
      <EstimateLine
        estimate={estimate.data ?? null}
        error={estimate.error ? (estimate.error as Error).message : null}
        spendingLeft={props.spendingLeft ?? null}
        budget={budget}
      />
      {state.message && <Alert>{state.message}</Alert>}
      <Button type="submit" disabled={pending}>
        {pending ? "Launching…" : `Launch ${props.variant.button}`}
      </Button>
    </ActionForm>
  );
}
