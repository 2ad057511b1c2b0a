"use client";

// An admin's approve / retire of a content-set version, through the API (POST /api/v1/content-sets/{ref}/approve
// or /retire), each confirmed first; the page reloads with the new state.
import { useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/alert";
import { ConfirmDialog } from "@/components/ui/dialog";
import type { ContentSetStatus } from "@/lib/content/status";
import { CONTENT_SET_TRANSITIONS } from "@/lib/content/status";

export function ContentStatusActions({ contentRef, status }: { contentRef: string; status: ContentSetStatus }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const act = async (action: "approve" | "retire") => {
    setPending(true);
    setError(null);
    try {
      const res = await fetch(`/api/v1/content-sets/${encodeURIComponent(contentRef)}/${action}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      if (!res.ok) setError(((await res.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${res.status}`);
      else router.refresh();
    } catch {
      setError("The server could not be reached.");
    } finally {
      setPending(false);
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      {CONTENT_SET_TRANSITIONS.approve.includes(status) && (
        <ConfirmDialog
          trigger={<Button disabled={pending}>Approve for runs</Button>}
          title={`Approve ${contentRef}?`}
          description="Runners may then launch runs on this version (they spend money). The approval is recorded with your name."
          confirmLabel="Approve"
          cancelLabel="Not yet"
          onConfirm={() => act("approve")}
        />
      )}
      {CONTENT_SET_TRANSITIONS.retire.includes(status) && (
        <ConfirmDialog
          trigger={
            <Button variant="secondary" disabled={pending}>
              Retire…
            </Button>
          }
          title={`Retire ${contentRef}?`}
          description="It takes no new runs; runs already on it keep their scores. This cannot be undone: a retired version stays retired."
          confirmLabel="Retire"
          onConfirm={() => act("retire")}
        />
      )}
      {error && <Alert compact>{error}</Alert>}
    </div>
  );
}
