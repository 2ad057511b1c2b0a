"use client";
// FACT-OR-FAIR's scores on its run page: the table with intervals once the data stops changing, the face-label,
// race-mapping and d-scoring choices (text-to-image), and the exports in the same settings.
import Link from "next/link";
import type { RunSummary } from "@/lib/features/results/summary";
import { Card } from "@/components/ui/card";
import { Select } from "@/components/ui/input";
import { ScoresTable } from "@/components/results/scores-table";
import { isLive } from "@/lib/core/run-status";
import { PROFILE_LABELS, SCORING_PROFILES, type ScoringProfile } from "@/lib/metrics/profiles";
import type { RunViewSettings } from "./use-run-summary";
import { useState } from "react";
import { CorrectedScores } from "./corrected-scores";

export function RunScores({ run, canExport, settings }: { run: RunSummary; canExport: boolean; settings: RunViewSettings }) {
  const t2i = run.modality === "t2i";
  const { labels, setLabels, raceMapping, setRaceMapping, profile, setProfile } = settings;
  // The third label source is computed on its own (the classifier's measured confusion): the summary keeps the model's.
  const [corrected, setCorrected] = useState(false);
  return (
    <Card
      title="Scores"
      description={
        t2i
          ? "×100 (0–100 scale). One record per detected face; an image without a face counts under refused and is not scored; images not yet labelled are not counted. Updates as faces are labelled."
          : "×100 (0–100 scale); n = scored answers incl. refused; failed calls are not scored. Updates as answers arrive."
      }
      actions={
        <div className="flex flex-wrap items-center gap-3 text-sm">
          {t2i && (
            <span>
              <label htmlFor="face-labels" className="mr-1 text-xs text-slate-600">
                Face labels
              </label>
              <Select
                id="face-labels"
                value={corrected ? "corrected" : labels}
                onChange={(e) => {
                  const v = e.target.value;
                  setCorrected(v === "corrected");
                  setLabels(v === "reviewed" ? "reviewed" : "model");
                }}
                className="rounded-md border border-slate-300 px-2 py-1 text-xs"
              >
                <option value="model">model (FairFace as it ran)</option>
                <option value="reviewed">human-corrected (majority, model otherwise)</option>
                <option value="corrected">misclassification-corrected (the classifier&apos;s measured errors)</option>
              </Select>
            </span>
          )}
          {t2i && (
            <span>
              <label htmlFor="race-mapping" className="mr-1 text-xs text-slate-600">
                FairFace race mapping
              </label>
              <Select
                id="race-mapping"
                value={raceMapping}
                onChange={(e) => setRaceMapping(e.target.value as "paper" | "sum-asian")}
                className="rounded-md border border-slate-300 px-2 py-1 text-xs"
              >
                <option value="paper">paper: argmax, Indian &amp; Middle Eastern ignored</option>
                <option value="sum-asian">sum East + Southeast Asian</option>
              </Select>
            </span>
          )}
          <span>
            <label
              htmlFor="scoring-profile"
              className="mr-1 text-xs text-slate-600"
              title="release: every score as the authors' released scripts compute it (S_KLD of the mean KL, their rounding, the bounded search for d — what the published numbers are); paper-text: as the paper defines each score (docs/scoring.md)"
            >
              Scoring
            </label>
            <Select
              id="scoring-profile"
              value={profile}
              onChange={(e) => setProfile(e.target.value as ScoringProfile)}
              className="rounded-md border border-slate-300 px-2 py-1 text-xs"
            >
              {SCORING_PROFILES.map((p) => (
                <option key={p} value={p}>
                  {p}: {PROFILE_LABELS[p]}
                </option>
              ))}
            </Select>
          </span>
          {canExport && (
            <a
              className="text-xs text-indigo-700 underline"
              href={`/api/runs/${run.id}/export?format=jsonl&raceMapping=${raceMapping}&labels=${labels}`}
              download
            >
              Download JSONL ({t2i ? "one line per face" : "one line per answer"})
            </a>
          )}
          {canExport && (
            <a
              className="text-xs text-indigo-700 underline"
              href={`/api/runs/${run.id}/bundle`}
              download
              title="A signed zip an outsider checks offline with `fof verify` (docs/evidence.md)"
            >
              Evidence bundle (signed)
            </a>
          )}
          <a
            className="text-xs text-indigo-700 underline"
            href={`/api/runs/${run.id}/export?format=json&raceMapping=${raceMapping}&profile=${profile}`}
            download
          >
            Scores JSON
          </a>
          <a
            className="text-xs text-indigo-700 underline"
            href={`/api/runs/${run.id}/export?format=csv&raceMapping=${raceMapping}&labels=${labels}&profile=${profile}`}
            download
          >
            Scores CSV (with 95 % intervals)
          </a>
          <Link
            className="text-xs text-indigo-700 underline"
            href={`/runs/${run.id}/report${t2i ? `?labels=${labels}&raceMapping=${raceMapping}&profile=${profile}` : `?profile=${profile}`}`}
          >
            Printable report
          </Link>
        </div>
      }
    >
      {corrected ? (
        <CorrectedScores runId={run.id} raceMapping={raceMapping} profile={profile} />
      ) : run.scores.length === 0 ? (
        <p className="text-sm text-slate-500">{t2i ? "No labelled images yet." : "No answers yet."}</p>
      ) : (
        <>
          {run.modelScores && <p className="mb-2 text-xs text-slate-500">Small numbers under each score: the difference to the model’s own labels (×100).</p>}
          <ScoresTable
            rows={run.scores.map((g) => ({ ...g, run: { id: run.id, name: run.name } }))}
            baseline={run.modelScores}
            hideRunColumn
            breakdownLinks
            // intervals once the data stops changing (they are cached per state of the data)
            intervalsFor={isLive(run.status) ? [] : [run.id]}
            intervalParams={t2i ? { labels, raceMapping, profile } : { profile }}
          />
        </>
      )}
    </Card>
  );
}
