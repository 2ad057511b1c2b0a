"use client";

import { useActionState, useState } from "react";
import { saveModel, type ModelFormState } from "@/app/models/actions";
import { Button } from "@/components/ui/button";
import { ActionForm } from "@/components/ui/action-form";
import { Input, Select } from "@/components/ui/input";

type Field = { name: string; label: string; type?: string; placeholder?: string; step?: string; hint?: string; only?: "llm" | "t2i"; api?: true };

const FIELDS: Field[] = [
  { name: "slug", label: "Id", placeholder: "gpt-4o-2024-08-06", hint: "used in runs, exports and the CLI" },
  { name: "label", label: "Display name", placeholder: "GPT-4o" },
  { name: "modelId", label: "Provider model id", placeholder: "gpt-4o-2024-08-06, dall-e-3, black-forest-labs/flux-1.1-pro", api: true },
  {
    name: "baseUrl",
    label: "Base URL",
    placeholder: "https://api.deepinfra.com/v1/openai",
    hint: "OpenAI-compatible servers; blank = provider default",
    api: true,
  },
  { name: "temperature", label: "Temperature", type: "number", step: "0.1", placeholder: "0", hint: "paper: 0", only: "llm" },
  { name: "maxTokens", label: "Max tokens", type: "number", placeholder: "64", only: "llm" },
  { name: "priceInputPer1k", label: "USD / 1k input tokens", type: "number", step: "0.0001", placeholder: "0", only: "llm" },
  { name: "priceOutputPer1k", label: "USD / 1k output tokens", type: "number", step: "0.0001", placeholder: "0", only: "llm" },
  { name: "width", label: "Image width (px)", type: "number", placeholder: "1024", hint: "paper: 1024 × 1024", only: "t2i", api: true },
  { name: "height", label: "Image height (px)", type: "number", placeholder: "1024", only: "t2i", api: true },
  {
    name: "quality",
    label: "Quality",
    placeholder: "standard",
    hint: "OpenAI Images only: standard/hd (dall-e-3), low…high (gpt-image-1)",
    only: "t2i",
    api: true,
  },
  { name: "pricePerImage", label: "USD / image", type: "number", step: "0.001", placeholder: "0.04", only: "t2i", api: true },
  { name: "concurrency", label: "Concurrency", type: "number", placeholder: "8", hint: "calls at once, over all workers", api: true },
  { name: "requestsPerMinute", label: "Requests / minute", type: "number", placeholder: "no limit", hint: "the provider's limit, over all workers", api: true },
  {
    name: "tokensPerMinute",
    label: "Tokens / minute",
    type: "number",
    placeholder: "no limit",
    hint: "input + output, over all workers",
    only: "llm",
    api: true,
  },
];

export function ModelForm({ credentials }: { credentials: string[] }) {
  const [state, action, pending] = useActionState<ModelFormState, FormData>(saveModel, {});
  const err = state.fieldErrors ?? {};
  const [modality, setModality] = useState<"llm" | "t2i">("llm");
  const [provider, setProvider] = useState("openai");
  const shown = FIELDS.filter((f) => (!f.only || f.only === modality) && (!f.api || provider !== "import"));
  return (
    <ActionForm action={action} className="space-y-3" data-testid="model-form">
      {state.message && (
        <p
          role={state.ok ? "status" : "alert"}
          className={`rounded-md px-3 py-2 text-sm ${state.ok ? "bg-emerald-50 text-emerald-800" : "bg-rose-50 text-rose-800"}`}
        >
          {state.message}
        </p>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="text-sm">
          <label htmlFor="model-modality" className="font-medium">
            Kind
          </label>
          <Select
            id="model-modality"
            name="modality"
            value={modality}
            onChange={(e) => {
              const m = e.target.value as "llm" | "t2i";
              setModality(m);
              if (m === "llm" && provider === "import") setProvider("openai");
            }}
            className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5"
          >
            <option value="llm">LLM (text answers)</option>
            <option value="t2i">Text-to-image (portraits)</option>
          </Select>
        </div>
        <div className="text-sm">
          <label htmlFor="model-provider" className="font-medium">
            Provider
          </label>
          <Select
            id="model-provider"
            name="provider"
            value={provider}
            onChange={(e) => setProvider(e.target.value)}
            aria-invalid={!!err.provider}
            aria-describedby="provider-hint"
            className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5"
          >
            <option value="openai">{modality === "t2i" ? "OpenAI Images" : "OpenAI"}</option>
            <option value="openai-compatible">OpenAI-compatible (vLLM, Ollama, DeepInfra, OpenRouter…)</option>
            <option value="replicate">Replicate</option>
            {modality === "t2i" && <option value="import">Import only (no API: Midjourney …)</option>}
          </Select>
          <span id="provider-hint" className={`mt-0.5 block text-xs ${err.provider ? "text-rose-700" : "text-slate-500"}`}>
            {err.provider ?? (provider === "import" ? "images made elsewhere are uploaded on the Import page" : "")}
          </span>
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        {shown.map((f) => (
          <div key={f.name} className="text-sm">
            <label htmlFor={`model-${f.name}`} className="font-medium">
              {f.label}
            </label>
            <Input
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
      {provider !== "import" && (
        <div className="text-sm">
          <label htmlFor="model-apiKeyEnv" className="font-medium">
            Credential
          </label>
          <Select
            id="model-apiKeyEnv"
            name="apiKeyEnv"
            defaultValue=""
            aria-invalid={!!err.apiKeyEnv}
            aria-describedby="apiKeyEnv-hint"
            className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5 aria-[invalid=true]:border-rose-500 sm:w-1/2"
          >
            <option value="">{provider === "openai-compatible" ? "none (no key is sent)" : "the provider's own (OPENAI_API_KEY / REPLICATE_API_TOKEN)"}</option>
            {credentials.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Select>
          <span id="apiKeyEnv-hint" className={`mt-0.5 block text-xs ${err.apiKeyEnv ? "text-rose-700" : "text-slate-500"}`}>
            {err.apiKeyEnv ?? "declared by the operator on the server, each for its own endpoints; the key itself is never entered here"}
          </span>
        </div>
      )}
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Save model"}
      </Button>
    </ActionForm>
  );
}
