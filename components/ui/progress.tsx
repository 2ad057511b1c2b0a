// A labelled progress bar (role=progressbar with its range), the one the run, Label and CLIP pages share.
import { cn } from "./cn";

export function ProgressBar({
  label,
  value,
  max,
  tone = "emerald",
  className,
}: {
  label: string;
  value: number;
  max: number;
  tone?: "emerald" | "indigo";
  className?: string;
}) {
  const pct = max > 0 ? Math.min(100, (value / max) * 100) : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      className={cn("h-3 w-full overflow-hidden rounded bg-slate-100", className)}
    >
      <div className={cn("h-full transition-all", tone === "indigo" ? "bg-indigo-600" : "bg-emerald-600")} style={{ width: `${pct}%` }} />
    </div>
  );
}
