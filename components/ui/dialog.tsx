"use client";
// Dialogs on Radix's headless primitive: focus moves in and is trapped while open, Escape and the overlay close,
// focus returns to what opened it, and the title and description are announced.
import * as Radix from "@radix-ui/react-dialog";
import { useState, type ReactElement, type ReactNode } from "react";
import { Button } from "./button";
import { cn } from "./cn";

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  trigger,
  bare = false,
  className,
  children,
}: {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  /** the element that opens it (uncontrolled use) */
  trigger?: ReactElement;
  /** a full-size work surface (the whole-image view): the title is for screen readers only and the layout is the caller's */
  bare?: boolean;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <Radix.Root open={open} onOpenChange={onOpenChange}>
      {trigger && <Radix.Trigger asChild>{trigger}</Radix.Trigger>}
      <Radix.Portal>
        <Radix.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <Radix.Content
          className={cn(
            "fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 overflow-auto rounded-lg bg-white p-5 shadow-xl focus:outline-none",
            className,
          )}
          {...(description ? {} : { "aria-describedby": undefined })}
          onOpenAutoFocus={(e) => {
            // a dialog may name the control that takes the focus first (ConfirmDialog: its safe choice)
            const first = (e.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>("[data-autofocus]");
            if (first) {
              e.preventDefault();
              first.focus();
            }
          }}
        >
          <Radix.Title className={bare ? "sr-only" : "text-base font-semibold text-slate-900"}>{title}</Radix.Title>
          {description && <Radix.Description className="mt-1 text-sm text-slate-600">{description}</Radix.Description>}
          {bare ? children : <div className="mt-4">{children}</div>}
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
}

/**
 * Asks before something that cannot be undone. `trigger` opens it; the confirm button runs `onConfirm` and closes.
 * The cancel button takes the focus when it opens (onOpenAutoFocus), so Enter never confirms by accident.
 */
export function ConfirmDialog({
  trigger,
  title,
  description,
  confirmLabel,
  cancelLabel = "Keep it",
  onConfirm,
}: {
  trigger: ReactElement;
  title: ReactNode;
  description?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen} title={title} description={description} trigger={trigger}>
      <div className="flex justify-end gap-2">
        <Radix.Close asChild>
          <Button variant="secondary" data-autofocus>
            {cancelLabel}
          </Button>
        </Radix.Close>
        <Button
          variant="danger"
          onClick={() => {
            setOpen(false);
            onConfirm();
          }}
        >
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
