"use client";
// The Label page for a run read with CLIP: the instrument's files from the server, a progress bar, start / pause.

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Alert } from "@/components/ui/alert";
import { useClipLabelling } from "./use-clip-labelling";
import { ProgressBar } from "@/components/ui/progress";

export function ClipLabeller({ runId, initialTodo, initialTotal }: { runId: string; initialTodo: number; initialTotal: number }) {
  const { phase, message, model, stats, start, pause } = useClipLabelling(runId, initialTodo);
  const done = initialTotal - stats.todo;
  const perSecond = stats.activeMs > 0 ? stats.images / (stats.activeMs / 1000) : 0;
  return (
    <Card
      title="CLIP on whole images (the suite's own instrument)"
      description="Each image is read whole by CLIP's vision tower in this browser (WASM) and compared with the release's texts; the release's rules run when the run is scored. No face is detected."
    >
      <p className="text-sm" data-testid="clip-model">
        {model ?? (phase === "error" ? "–" : "loading the vision tower and its text file…")}
      </p>
      {message && (
        <Alert compact className="mt-2">
          {message}
        </Alert>
      )}
      <ProgressBar label="Images read" value={done} max={initialTotal} className="mt-3" />
      <p className="mt-2 text-sm tabular-nums" data-testid="clip-progress">
        {stats.images.toLocaleString("en-US")} read here · {stats.todo.toLocaleString("en-US")} to read
        {perSecond > 0 ? ` · ${perSecond.toFixed(1)} images/s` : ""}
        {phase === "done" ? " · done" : ""}
      </p>
      <div className="mt-3 flex gap-2">
        {phase === "running" ? (
          <Button type="button" onClick={pause}>
            Pause
          </Button>
        ) : (
          <Button type="button" onClick={() => void start()} disabled={phase !== "ready"}>
            Start reading
          </Button>
        )}
      </div>
    </Card>
  );
}
