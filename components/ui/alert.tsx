// A message about the page's state. Errors interrupt a screen reader (role="alert"); the other tones are polite
// (role="status"). `compact`: a line of coloured text rather than a box (beside a button, under a form).
import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

const TONES = {
  error: "border-rose-200 bg-rose-50 text-rose-800",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
  success: "border-emerald-200 bg-emerald-50 text-emerald-900",
  info: "border-slate-200 bg-slate-50 text-slate-800",
} as const;
const TEXT = { error: "text-rose-700", warning: "text-amber-800", success: "text-emerald-800", info: "text-slate-700" } as const;

export function Alert({
  tone = "error",
  title,
  compact = false,
  className,
  children,
  ...rest
}: { tone?: keyof typeof TONES; title?: ReactNode; compact?: boolean; children?: ReactNode } & Omit<ComponentProps<"div">, "title">) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={cn("text-sm", compact ? TEXT[tone] : cn("rounded-md border px-3 py-2", TONES[tone]), className)}
      {...rest}
    >
      {title && <p className="font-semibold">{title}</p>}
      {children}
    </div>
  );
}
