"use client";
// Starts a judge pass: which registered chat model reads every explanation with the rubric, and its budget.
import { useActionState } from "react";
import { startJudgeAction, type JudgeFormState } from "@/app/runs/[id]/explanations/actions";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Field } from "@/components/ui/field";
import { Alert } from "@/components/ui/alert";

const input = "mt-0.5 w-full rounded-md border border-slate-300 px-2 py-1 text-sm";

export function JudgeForm({ runId, judges, busy }: { runId: string; judges: Array<{ slug: string; label: string }>; busy: boolean }) {
  const [state, action, pending] = useActionState<JudgeFormState, FormData>(startJudgeAction, {});
  return (
    <ActionForm action={action} className="space-y-2 text-sm">
      <input type="hidden" name="runId" value={runId} />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Judge model" hint="A registered chat model; baseline:judge is the offline test judge with a known error rate.">
          <select id="judge-model" name="judge" className={input} defaultValue={judges[0]?.slug}>
            {judges.map((j) => (
              <option key={j.slug} value={j.slug}>
                {j.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Budget (USD, blank: the worst case)">
          <Input id="judge-budget" name="budgetUsd" type="number" min={0} step="0.01" className={input} />
        </Field>
      </div>
      <Button type="submit" disabled={pending || busy || judges.length === 0}>
        {busy ? "A pass is under way" : pending ? "Starting…" : "Judge every explanation"}
      </Button>
      {state.message && <Alert tone={state.ok ? "success" : "error"}>{state.message}</Alert>}
    </ActionForm>
  );
}
