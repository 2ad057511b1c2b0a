"use client";

import { useActionState, useState } from "react";
import { saveModel, type ModelFormState } from "@/app/models/actions";
import { Button } from "@/components/ui/button";
import { ActionForm } from "@/components/ui/action-form";
import { Input, Select } from "@/components/ui/input";
import { Field } from "@/components/ui/field";
import { Alert } from "@/components/ui/alert";

type FieldSpec = { name: string; label: string; type?: string; placeholder?: string; step?: string; hint?: string; only?: "llm" | "t2i"; api?: true };

const FIELDS: FieldSpec[] = [
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
      {state.message && <Alert tone={state.ok ? "success" : "error"}>{state.message}</Alert>}
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Kind">
          <Select
            id="model-modality"
            name="modality"
            value={modality}
            onChange={(e) => {
              const m = e.target.value as "llm" | "t2i";
              setModality(m);
              if (m === "llm" && provider === "import") setProvider("openai");
            }}
            className="block w-full"
          >
            <option value="llm">LLM (text answers)</option>
            <option value="t2i">Text-to-image (portraits)</option>
          </Select>
        </Field>
        <Field label="Provider" error={err.provider} hint={provider === "import" ? "images made elsewhere are uploaded on the Import page" : undefined}>
          <Select id="model-provider" name="provider" value={provider} onChange={(e) => setProvider(e.target.value)} className="block w-full">
            <option value="openai">{modality === "t2i" ? "OpenAI Images" : "OpenAI"}</option>
            <option value="openai-compatible">OpenAI-compatible (vLLM, Ollama, DeepInfra, OpenRouter…)</option>
            <option value="replicate">Replicate</option>
            {modality === "t2i" && <option value="import">Import only (no API: Midjourney …)</option>}
          </Select>
        </Field>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        {shown.map((f) => (
          <Field key={f.name} label={f.label} hint={err[f.name] ? undefined : f.hint} error={err[f.name]}>
            <Input id={`model-${f.name}`} name={f.name} type={f.type ?? "text"} step={f.step} placeholder={f.placeholder} className="block w-full" />
          </Field>
        ))}
      </div>
      {provider !== "import" && (
        <Field
          label="Credential"
          error={err.apiKeyEnv}
          hint={err.apiKeyEnv ? undefined : "declared by the operator on the server, each for its own endpoints; the key itself is never entered here"}
        >
          <Select id="model-apiKeyEnv" name="apiKeyEnv" defaultValue="" className="block w-full sm:w-1/2">
            <option value="">{provider === "openai-compatible" ? "none (no key is sent)" : "the provider's own (OPENAI_API_KEY / REPLICATE_API_TOKEN)"}</option>
            {credentials.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Select>
        </Field>
      )}
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Save model"}
      </Button>
    </ActionForm>
  );
}
