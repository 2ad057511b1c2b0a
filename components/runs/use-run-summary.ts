"use client";
// A run page's live state: the summary polled while the run is live (or, text-to-image, still being labelled, which
// happens elsewhere), the scoring settings it is read with, and the pause / resume / cancel mutation.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { RunSummary } from "@/lib/features/results/summary";
import { changeRunState } from "@/app/runs/[id]/actions";
import { isLive } from "@/lib/core/run-status";
import { getJson } from "@/lib/client/fetch";
import type { ScoringProfile } from "@/lib/metrics/profiles";

type RaceMapping = "paper" | "sum-asian";
type Labels = "model" | "reviewed";

export interface RunViewSettings {
  raceMapping: RaceMapping;
  setRaceMapping: (v: RaceMapping) => void;
  labels: Labels;
  setLabels: (v: Labels) => void;
  profile: ScoringProfile;
  setProfile: (v: ScoringProfile) => void;
}

export function useRunSummary(initial: RunSummary) {
  const qc = useQueryClient();
  const [raceMapping, setRaceMapping] = useState<RaceMapping>(initial.raceMapping);
  const [labels, setLabels] = useState<Labels>(initial.labels);
  const [profile, setProfile] = useState<ScoringProfile>(initial.profile);
  const t2i = initial.modality === "t2i";
  const { data, error, dataUpdatedAt } = useQuery({
    queryKey: ["run", initial.id, raceMapping, labels, profile],
    queryFn: () => getJson<RunSummary>(`/api/runs/${initial.id}?raceMapping=${raceMapping}&labels=${labels}&profile=${profile}`),
    initialData: raceMapping === initial.raceMapping && labels === initial.labels && profile === initial.profile ? initial : undefined,
    placeholderData: keepPreviousData,
    // T2I runs also follow labelling, which happens in other tabs and workers; a run paused while planning, its planning.
    refetchInterval: (q) =>
      q.state.data && (isLive(q.state.data.status) || q.state.data.planning || (t2i && (q.state.data.labelling?.unlabelled ?? 0) > 0))
        ? t2i
          ? 3000
          : 1000
        : false,
  });
  const control = useMutation<void, Error, "pause" | "resume" | "cancel">({
    mutationFn: async (action) => {
      const r = await changeRunState({ runId: initial.id, action });
      if (!r.ok) throw new Error(r.error);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: ["run", initial.id] }),
  });
  const settings: RunViewSettings = { raceMapping, setRaceMapping, labels, setLabels, profile, setProfile };
  return { run: data, error: error as Error | null, updatedAt: dataUpdatedAt, control, settings };
}
