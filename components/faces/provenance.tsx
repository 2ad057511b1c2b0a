// What labelled a run's faces, wherever its numbers appear: classifier(s) with how far they may be compared with
// the papers, the detector, the runtimes. No hooks: the run page (client) and results pages (server) both render it.
import { Badge } from "@/components/ui/badge";
import {
  CHIP_METHOD_TEXT,
  CLASSIFIER_STATUS_TEXT,
  mixedClassifiersMessage,
  modelDisplayName,
  provenanceText,
  type ClassifierStatus,
  type LabelProvenance,
} from "@/lib/faces/provenance";
import { Alert } from "@/components/ui/alert";

const TONE: Record<ClassifierStatus, "success" | "warning" | "danger"> = { fairface: "success", "stand-in": "danger", unverified: "warning" };
const SHORT: Record<ClassifierStatus, string> = {
  fairface: "FairFace, verified",
  "stand-in": "stand-in — not FairFace",
  unverified: "not verified as FairFace",
};

/** Whose word a checksum is: the labeller's, except where the server compared it with a file it served. */
const DECLARED =
  "Checksums are declared by the labellers (browser tabs, label workers). The server checks a browser's declaration against the files it served that tab (detector, landmarker, its FairFace file, CLIP's files); a file a person chose in their own browser is their word.";

export function ProvenanceBadge({ p }: { p: LabelProvenance }) {
  if (!p.classifiers.length && p.readers.length)
    return p.readers.every((r) => r.known) ? (
      <Badge tone="success">CLIP, a known checkpoint</Badge>
    ) : (
      <Badge tone="danger" title={provenanceText(p)}>
        CLIP from unknown weights — not comparable
      </Badge>
    );
  if (!p.classifiers.length) return null;
  if (p.mixed) return <Badge tone="danger">{p.classifiers.length} classifiers — not scored</Badge>;
  const c = p.classifiers[0];
  return (
    <Badge tone={TONE[c.status]} title={CLASSIFIER_STATUS_TEXT[c.status]}>
      {SHORT[c.status]}
    </Badge>
  );
}

/** The full statement: each classifier by name and checksum with its face count and status, detector, runtime. */
export function ProvenanceDetails({ p, runName }: { p: LabelProvenance; runName?: string }) {
  if (!p.classifiers.length && p.readers.length)
    return (
      <div className="space-y-1 text-sm" data-testid="label-provenance">
        <p>
          {runName ? `${runName}: ` : ""}
          {provenanceText(p)}
        </p>
        <p className="text-xs text-slate-500">{DECLARED}</p>
      </div>
    );
  if (!p.classifiers.length) return <p className="text-sm text-slate-500">{runName ? `${runName}: ` : ""}no face has classifier output yet.</p>;
  return (
    <div className="space-y-1 text-sm" data-testid="label-provenance">
      {runName && <p className="font-medium">{runName}</p>}
      <ul className="space-y-1">
        {p.classifiers.map((c) => (
          <li key={c.sha256 ?? c.name} className="flex flex-wrap items-center gap-2">
            <span>
              Classifier <strong>{modelDisplayName(c.name, c.sha256)}</strong>{" "}
              <span className="font-mono text-xs text-slate-500">sha256 {c.sha256 ?? "unrecorded"}</span> · {c.faces.toLocaleString("en-US")} faces
            </span>
            <Badge tone={TONE[c.status]} title={CLASSIFIER_STATUS_TEXT[c.status]}>
              {SHORT[c.status]}
            </Badge>
          </li>
        ))}
      </ul>
      <p className="text-slate-600">Chips: {p.chips.map((c) => `${CHIP_METHOD_TEXT[c.method]} (${c.faces.toLocaleString("en-US")} faces)`).join("; ")}</p>
      <p className="text-slate-600">
        Detector:{" "}
        {p.detectors.length
          ? p.detectors.map((d) => `${modelDisplayName(d.name, d.sha256)}${d.sha256 ? ` (sha256 ${d.sha256.slice(0, 12)}…)` : ""}`).join(", ")
          : "none recorded (hand-drawn boxes only)"}{" "}
        · Runtime: {p.runtimes.map((r) => `${r.runtime} (${r.faces.toLocaleString("en-US")} faces)`).join(", ")}
      </p>
      <p className="text-xs text-slate-500">{DECLARED}</p>
      {p.mixed ? (
        <Alert>{mixedClassifiersMessage(p)}</Alert>
      ) : (
        !p.comparable && (
          <p className="text-amber-800">
            {p.classifiers[0].status === "fairface"
              ? "FairFace on square crops, not its aligned chips: not comparable with the papers"
              : CLASSIFIER_STATUS_TEXT[p.classifiers[0].status]}
            .
          </p>
        )
      )}
    </div>
  );
}
