"use client";
// For admins, beside the focused face: whether it is gold (its gold labels), and marking or unmarking it. Gold
// faces are served blind in annotators' queues to measure them (Review → Agreement), so only admins ever see this.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import type { ReviewFace } from "./api";

interface GoldState {
  faceId: number;
  gold: Record<string, string> | null;
}

async function call<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error((json as { error?: string }).error ?? `HTTP ${res.status}`);
  return json as T;
}

export function GoldControl({ face }: { face: ReviewFace }) {
  const qc = useQueryClient();
  const key = ["review-gold", face.id];
  const state = useQuery({ queryKey: key, queryFn: () => call<GoldState>(`/api/review/gold?faceId=${face.id}`) });
  const set = useMutation({
    mutationFn: (gold: boolean) =>
      call<GoldState>("/api/review/gold", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ faceId: face.id, gold }) }),
    onSuccess: (r) => qc.setQueryData(key, r),
  });
  const gold = state.data?.gold;
  const decided = face.consensus.annotators > 0 && !face.consensus.notAFace && Object.values(face.consensus.values).some((v) => v !== "undecided");
  return (
    <div className="mt-2 border-t border-slate-100 pt-2 text-xs" data-testid="gold-control">
      {state.isLoading ? (
        <span className="text-slate-500">gold: …</span>
      ) : gold ? (
        <>
          <span className="rounded bg-amber-100 px-1 font-medium text-amber-900">gold</span>{" "}
          {Object.entries(gold)
            .map(([a, v]) => `${a} ${v}`)
            .join(", ")}
          <Button variant="secondary" className="ml-2 px-2 py-0.5 text-xs" disabled={set.isPending} onClick={() => set.mutate(false)}>
            Remove gold
          </Button>
        </>
      ) : (
        <Button
          variant="secondary"
          className="px-2 py-0.5 text-xs"
          disabled={set.isPending || !decided}
          title={decided ? "Take the majority's labels as this face's gold labels" : "Gold faces need a decided majority: label it first"}
          onClick={() => set.mutate(true)}
        >
          Mark as gold
        </Button>
      )}
      {(set.error || state.error) && <p className="mt-1 text-rose-700">{((set.error ?? state.error) as Error).message}</p>}
    </div>
  );
}
