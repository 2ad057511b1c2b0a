// Form controls with the app's look: a text-like input and a select share one box style; checkboxes
// and radios get the accent colour only. A page's own classes come last and win (cn merges Tailwind classes).
import type { ComponentProps } from "react";
import { cn } from "./cn";

const BOX =
  "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:border-rose-500";
const UNBOXED = new Set(["checkbox", "radio", "file", "hidden", "range", "color"]);

export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  const tick = type === "checkbox" || type === "radio";
  return <input type={type} className={cn(!UNBOXED.has(type) && BOX, tick && "accent-indigo-600", className)} {...props} />;
}

export function Select({ className, ...props }: ComponentProps<"select">) {
  return <select className={cn(BOX, className)} {...props} />;
}
