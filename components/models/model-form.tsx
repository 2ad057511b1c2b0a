"use client";

import { useActionState } from "react";
import { saveModel, type ModelFormState } from "@/app/models/actions";
import { Button } from "@/components/ui/button";
import { ActionForm } from "@/components/ui/action-form";

const FIELDS: Array<{ name: string; label: string; type?: string; placeholder?: string; step?: string; hint?: string }> = [
  { name: "slug", label: "Id", placeholder: "gpt-4o-2024-08-06", hint: "used in runs, exports and the CLI" },
  { name: "label", label: "Display name", placeholder: "GPT-4o" },
  { name: "modelId", label: "Provider model id", placeholder: "gpt-4o-2024-08-06 or meta/meta-llama-3-70b-instruct" },
  { name: "baseUrl", label: "Base URL", placeholder: "https://api.deepinfra.com/v1/openai", hint: "OpenAI-compatible servers; blank = provider default" },
  { name: "apiKeyEnv", label: "Key env var", placeholder: "OPENAI_API_KEY", hint: "the name of a server env var, never the key" },
  { name: "temperature", label: "Temperature", type: "number", step: "0.1", placeholder: "0", hint: "paper: 0" },
  { name: "maxTokens", label: "Max tokens", type: "number", placeholder: "64" },
  { name: "priceInputPer1k", label: "USD / 1k input tokens", type: "number", step: "0.0001", placeholder: "0" },
  { name: "priceOutputPer1k", label: "USD / 1k output tokens", type: "number", step: "0.0001", placeholder: "0" },
  { name: "concurrency", label: "Concurrency", type: "number", placeholder: "8" },
];

export function ModelForm() {
  const [state, action, pending] = useActionState<ModelFormState, FormData>(saveModel, {});
  const err = state.fieldErrors ?? {};
  return (
    <ActionForm action={action} className="space-y-3">
      {state.message && (
        <p role={state.ok ? "status" : "alert"} className={`rounded-md px-3 py-2 text-sm ${state.ok ? "bg-emerald-50 text-emerald-800" : "bg-rose-50 text-rose-800"}`}>
          {state.message}
        </p>
      )}
      <div className="text-sm">
        <label htmlFor="model-provider" className="font-medium">
          Provider
        </label>
        <select id="model-provider" name="provider" defaultValue="openai" className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5">
          <option value="openai">OpenAI</option>
          <option value="openai-compatible">OpenAI-compatible (vLLM, Ollama, DeepInfra, OpenRouter…)</option>
          <option value="replicate">Replicate</option>
        </select>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        {FIELDS.map((f) => (
          <div key={f.name} className="text-sm">
            <label htmlFor={`model-${f.name}`} className="font-medium">
              {f.label}
            </label>
            <input
              id={`model-${f.name}`}
              name={f.name}
              type={f.type ?? "text"}
              step={f.step}
              placeholder={f.placeholder}
              aria-invalid={!!err[f.name]}
              aria-describedby={`${f.name}-hint`}
              className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5 aria-[invalid=true]:border-rose-500"
            />
            <span id={`${f.name}-hint`} className={`mt-0.5 block text-xs ${err[f.name] ? "text-rose-700" : "text-slate-500"}`}>
              {err[f.name] ?? f.hint}
            </span>
          </div>
        ))}
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Save model"}
      </Button>
    </ActionForm>
  );
}
