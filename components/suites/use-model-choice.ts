"use client";
// Which models a launch form starts with, so "pick a preset, Launch" works: the models last launched with this
// form in this browser (still registered), else a sensible default — the built-in synthetic image model for an
// image suite, the only model when there is one, else the first built-in baseline (free, no key). The boxes behave as
// checkboxes from the start: ticking another model adds it (a default that silently unticked itself launched one
// model where the person meant two).
import { useState, useSyncExternalStore } from "react";

const SYNTHETIC = "baseline:synthetic-faces";
const never = () => () => undefined;

function defaultChoice(models: ReadonlyArray<{ slug: string }>, t2i: boolean): string[] {
  if (models.length === 1) return [models[0].slug];
  if (t2i && models.some((m) => m.slug === SYNTHETIC)) return [SYNTHETIC];
  const baseline = models.find((m) => m.slug.startsWith("baseline:"));
  return baseline ? [baseline.slug] : [];
}

function readSaved(raw: string | null, models: ReadonlyArray<{ slug: string }>): string[] {
  try {
    const saved = JSON.parse(raw ?? "null") as unknown;
    return Array.isArray(saved) ? saved.filter((s): s is string => typeof s === "string" && models.some((m) => m.slug === s)) : [];
  } catch {
    return [];
  }
}

export function useModelChoice(suiteId: string, variant: { id: string; fixed?: Record<string, unknown> }, models: ReadonlyArray<{ slug: string }>) {
  const key = `fof.launch.models.${suiteId}.${variant.id}`;
  const t2i = variant.fixed?.modality === "t2i" || models.some((m) => m.slug === SYNTHETIC);
  // The server renders without this browser's storage; the browser reads it once hydrated.
  const raw = useSyncExternalStore(
    never,
    () => {
      try {
        return localStorage.getItem(key);
      } catch {
        return null;
      }
    },
    () => null,
  );
  const remembered = readSaved(raw, models);
  const [own, setOwn] = useState<string[] | null>(null);
  const start = remembered.length ? remembered : defaultChoice(models, t2i);
  const chosen = own ?? start;
  return {
    chosen,
    toggle(slug: string, on: boolean) {
      setOwn((prev) => {
        const current = prev ?? start;
        return on ? [...new Set([...current, slug])] : current.filter((s) => s !== slug);
      });
    },
    remember() {
      try {
        localStorage.setItem(key, JSON.stringify(chosen));
      } catch {
        // private mode: nothing remembered
      }
    },
  };
}
