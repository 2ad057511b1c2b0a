"use client";

// A run's failed items grouped by reason, so a failure is never only a number: each reason with its count, and (for
// roles that may read raw output) a link to the items behind it in the run's item list.
import Link from "next/link";
import { Card } from "@/components/ui/card";
import { Alert } from "@/components/ui/alert";
import { itemsHref } from "./item-list";

export function FailuresPanel({
  runId,
  failed,
  failures,
  usageFinding,
  lostCalls,
  canSeeItems,
}: {
  runId: string;
  failed: number;
  failures: Array<{ reason: string; count: number }>;
  usageFinding?: { calls: number; excessUsd: number } | null;
  lostCalls?: { calls: number; usd: number; models: Array<{ slug: string; calls: number; usd: number }> } | null;
  canSeeItems: boolean;
}) {
  const lost = lostCalls ? (
    <Alert tone="warning" data-testid="lost-calls">
      {lostCalls.calls.toLocaleString("en-US")} call{lostCalls.calls === 1 ? "" : "s"} may have been paid at the provider but their answers were lost with the
      worker making them (it stopped mid-call): charged at their worst case, ${lostCalls.usd.toFixed(4)} in all (
      {lostCalls.models.map((m) => `${m.slug}: ${m.calls.toLocaleString("en-US")}`).join(", ")}). Their queries were asked again.
    </Alert>
  ) : null;
  const finding = usageFinding ? (
    <Alert tone="warning" data-testid="usage-finding">
      The provider reported more usage than the request allowed on {usageFinding.calls.toLocaleString("en-US")} call
      {usageFinding.calls === 1 ? "" : "s"} (${usageFinding.excessUsd.toFixed(2)} beyond max_tokens): each was charged what the request allowed, the excess was
      not. After three such calls the model is no longer called in this run.
    </Alert>
  ) : null;
  if (failed === 0)
    return (
      <>
        {lost}
        {finding}
      </>
    );
  return (
    <>
      {lost}
      {finding}
      <Card
        title={`Failures (${failed.toLocaleString("en-US")})`}
        description="Failed items by the reason recorded for them, most frequent first. Failed items are left out of every score; the run's status says how many there are."
      >
        <ul className="space-y-2 text-sm" data-testid="failure-reasons">
          {failures.map((f) => (
            <li key={f.reason}>
              <div className="flex flex-wrap items-start gap-2">
                <span className="rounded bg-rose-50 px-1.5 font-medium text-rose-800">{f.count.toLocaleString("en-US")}×</span>
                <span className="min-w-0 flex-1 break-words">{f.reason}</span>
                {canSeeItems && (
                  <Link className="text-xs text-indigo-700 underline" href={itemsHref(runId, { status: "failed", reason: f.reason })}>
                    Show the items
                  </Link>
                )}
              </div>
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}
