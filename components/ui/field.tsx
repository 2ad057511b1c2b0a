// A labelled control: the label (tied to the control by id), an optional hint and an error, both announced with the
// control (aria-describedby) and the error marking it invalid. The one control is passed as the child.
import { cloneElement, useId, type ReactElement, type ReactNode } from "react";
import { cn } from "./cn";

type ControlProps = { id?: string; "aria-describedby"?: string; "aria-invalid"?: boolean };

export function Field({
  label,
  hint,
  error,
  className,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  className?: string;
  children: ReactElement<ControlProps>;
}) {
  const auto = useId();
  const id = children.props.id ?? `${auto}-control`;
  const hintId = hint ? `${auto}-hint` : undefined;
  const errorId = error ? `${auto}-error` : undefined;
  const describedBy = [children.props["aria-describedby"], hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("flex flex-col gap-1 text-sm", className)}>
      <label htmlFor={id} className="font-medium text-slate-800">
        {label}
      </label>
      {cloneElement(children, { id, "aria-describedby": describedBy, ...(error ? { "aria-invalid": true } : {}) })}
      {hint && (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-xs text-rose-700">
          {error}
        </p>
      )}
    </div>
  );
}
