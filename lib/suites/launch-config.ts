// A suite launch form's values → the suite's config object, one rule for the server action (which validates it with
// the suite's schema) and the browser (which asks for an estimate as the form changes). Client-safe.
import type { LaunchField } from "./types";

/** `fixed`: what the form's variant sets without asking (LaunchVariant.fixed). */
export function configFromForm(fields: readonly LaunchField[], form: FormData, fixed: Record<string, unknown> = {}): Record<string, unknown> {
  const config: Record<string, unknown> = { ...fixed };
  for (const field of fields) {
    if (field.kind === "choices") config[field.name] = form.getAll(field.name).map(String);
    else if (field.kind === "number") config[field.name] = form.get(field.name) === "" || form.get(field.name) === null ? NaN : Number(form.get(field.name));
    else if (field.kind === "toggle") config[field.name] = form.get(field.name) === "on";
    else if (field.kind === "select") config[field.name] = String(form.get(field.name) ?? "");
    else config[field.name] = (form.get(field.name) as string | null) || null;
  }
  return config;
}
