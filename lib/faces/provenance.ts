// What produced a face's label: the detector and classifier (name, sha256 of the weights) and the runtime the
// pipeline ran on. Client-safe: the run page, results and exports all describe labels with these values.
import { z } from "zod";

/** Where the face pipeline ran: the same code (lib/faces/pipeline.ts) on two runtimes and their backends. */
const LABEL_RUNTIMES = ["node-cpu", "node-cuda", "browser-wasm", "browser-webgpu"] as const;
export type LabelRuntime = (typeof LABEL_RUNTIMES)[number];
export const labelRuntimeSchema = z.enum(LABEL_RUNTIMES);

/**
 * What labels a run's images, fixed at launch: "faces" = the face pipeline (detector → FairFace per face), every
 * suite's default; "clip" = CLIP zero-shot on the whole image (./clip.ts, ./clip-texts.ts), for suites that measure that way.
 */
const LABEL_INSTRUMENTS = ["faces", "clip"] as const;
export type LabelInstrument = (typeof LABEL_INSTRUMENTS)[number];
export const labelInstrumentSchema = z.enum(LABEL_INSTRUMENTS);

/**
 * How a face's classifier input was cut: "dlib-5pt-800" = FairFace's own chips as predict.py cuts them — the image
 * first resized so its longer side is 800 px (dlib's resize_image: lib/faces/resize.ts), then five landmarks and
 * dlib's get_face_chip, 300 px, padding 0.25, then 224 (lib/faces/chip.ts); "dlib-5pt" = the same chips cut from the
 * image at its own size (labels made before the pre-resize); "square" = a square crop of the detector's box (+25 %).
 * FairFace was trained and published on aligned chips, so only those are read beside the papers.
 */
const CHIP_METHODS = ["dlib-5pt-800", "dlib-5pt", "square"] as const;
export type ChipMethod = (typeof CHIP_METHODS)[number];
export const chipMethodSchema = z.enum(CHIP_METHODS);
/** What labellers record for aligned chips today. */
export const ALIGNED_CHIP = "dlib-5pt-800" satisfies ChipMethod;
export const isAlignedChip = (m: string | null | undefined): boolean => m === "dlib-5pt-800" || m === "dlib-5pt";
/** A stored chip method as one of ours (faces from before chips were recorded were square crops). */
export const chipMethodOf = (m: string | null | undefined): ChipMethod => (m === "dlib-5pt-800" || m === "dlib-5pt" ? m : "square");
export const CHIP_METHOD_TEXT: Record<ChipMethod, string> = {
  "dlib-5pt-800":
    "aligned chips as FairFace's predict.py cuts them (the image resized to 800 px on its longer side with dlib's resize_image, five landmarks, dlib's get_face_chip at 300 px with padding 0.25, then 224)",
  "dlib-5pt":
    "aligned chips cut from the image at its own size (five landmarks, dlib's get_face_chip at 300 px with padding 0.25, then 224; predict.py resizes to 800 px first)",
  square: "square crops of the detector's boxes (+25 %), not FairFace's aligned chips",
};

const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, "a sha256: 64 lowercase hex digits");
export const modelRefSchema = z.object({ model: z.string().min(1).max(80), sha256: sha256Schema });

/**
 * Weights known by their checksum. The stand-ins are the test models of ../shared/models: they have FairFace's
 * shapes but fixed toy weights, so their labels say nothing about the people in an image.
 */
const KNOWN: Record<string, { name: string; kind: "detector" | "stand-in" | "landmarker" }> = {
  "6c0256ccd3164f844736a401faf936ec2930764a87ae39442180887d0c5c8854": { name: "UltraFace RFB-320", kind: "detector" },
  "34cd7e60aeff28744c657de7a3dc64e872d506741de66987f3426f2b79f88017": { name: "UltraFace RFB-320", kind: "detector" },
  "8156c9d989417b3f2db78025b03b725138a91d30814f483cb437b5a57ac65eb4": { name: "FairFace stand-in (single output)", kind: "stand-in" },
  f40d8a32ee17fabb1ed479770fdfd0ec97739e508e3413c2a1ac70fa1a3ad9da: { name: "FairFace stand-in (three heads)", kind: "stand-in" },
  f10b0ba1d2a8a099adefede1ebf3733e44fe370715e7303dbeb7f59c02142258: { name: "68-point landmarks (faceplugin)", kind: "landmarker" },
};

/**
 * How far a classifier's numbers may be read beside the papers': "fairface" only for weights an admin vouched for
 * (FAIRFACE_MODEL_SHA256 / FOF_FAIRFACE_SHA256), "stand-in" for the known test models, "unverified" for anything
 * else — a file called fairface.onnx is not evidence. Only "fairface" is comparable with published rows.
 */
export type ClassifierStatus = "fairface" | "stand-in" | "unverified";

export function classifierStatus(sha256: string | null | undefined, verified: readonly string[]): ClassifierStatus {
  if (sha256 && verified.includes(sha256)) return "fairface";
  if (sha256 && KNOWN[sha256]?.kind === "stand-in") return "stand-in";
  return "unverified";
}

export const CLASSIFIER_STATUS_TEXT: Record<ClassifierStatus, string> = {
  fairface: "FairFace (weights verified by checksum)",
  "stand-in": "a test stand-in, not FairFace: its labels are not about the people in the images, and the numbers are not comparable with the papers'",
  unverified:
    "not verified as FairFace (its checksum is not among FAIRFACE_MODEL_SHA256 / FOF_FAIRFACE_SHA256): not comparable with the papers until an admin vouches for it",
};

/** A known file's display name, else the name it was labelled under. */
export function modelDisplayName(name: string | null | undefined, sha256: string | null | undefined): string {
  return (sha256 && KNOWN[sha256]?.name) || name || "unknown";
}

/** One classifier (or detector, or runtime) seen in a run's faces, and how many faces it labelled. */
interface ProvenanceEntry {
  name: string;
  sha256: string | null;
  faces: number;
}

interface ClassifierEntry extends ProvenanceEntry {
  status: ClassifierStatus;
}

/** Everything a run's (not deleted) faces say about what labelled them. */
export interface LabelProvenance {
  classifiers: ClassifierEntry[];
  detectors: ProvenanceEntry[];
  runtimes: Array<{ runtime: string; faces: number }>;
  /** how the classifier inputs were cut ("square" also for faces from before chips were recorded) */
  chips: Array<{ method: ChipMethod; faces: number }>;
  /** runs read with CLIP: the vision tower, the weights its texts came from (known: a checkpoint the papers used) */
  readers: Array<{ name: string; sha256: string; weightsSha256: string; known: boolean; images: number }>;
  /** faces with classifier output at all */
  faces: number;
  /** more than one classifier's weights, or more than one chip method: such a run is not scored */
  mixed: boolean;
  /**
   * every classifier is verified FairFace and every chip aligned (faces), or every reading comes from known CLIP
   * weights (CLIP): only then are numbers read beside the papers'
   */
  comparable: boolean;
}

/** One line for captions, exports and the CLI: what labelled the faces, and what that means for the numbers. */
export function provenanceText(p: LabelProvenance): string {
  if (!p.classifiers.length && p.readers.length)
    return `Read by CLIP: ${p.readers
      .map(
        (r) =>
          `${r.name} (sha256 ${r.sha256.slice(0, 12)}…, texts from weights ${r.weightsSha256.slice(0, 12)}…, ${r.images.toLocaleString("en-US")} images)${r.known ? "" : ": not a known CLIP checkpoint, not comparable with the papers"}`,
      )
      .join("; ")}.`;
  if (!p.classifiers.length) return "No face has classifier output yet.";
  const cls = p.classifiers
    .map(
      (c) =>
        `${modelDisplayName(c.name, c.sha256)} (sha256 ${c.sha256?.slice(0, 12) ?? "unknown"}…, ${c.faces.toLocaleString("en-US")} faces): ${CLASSIFIER_STATUS_TEXT[c.status]}`,
    )
    .join("; ");
  const det = p.detectors.map((d) => `${modelDisplayName(d.name, d.sha256)}${d.sha256 ? ` (sha256 ${d.sha256.slice(0, 12)}…)` : ""}`).join(", ");
  const rt = p.runtimes.map((r) => `${r.runtime} ${r.faces.toLocaleString("en-US")}`).join(", ");
  const chips = p.chips.map((c) => `${CHIP_METHOD_TEXT[c.method]} (${c.faces.toLocaleString("en-US")} faces)`).join("; ");
  return `Labels by ${cls}. Chips: ${chips || "unrecorded"}. Detector: ${det || "unrecorded"}. Runtime: ${rt || "unrecorded"}.${p.mixed ? " MIXED: faces come from more than one classifier or chip method, so the run is not scored." : ""}`;
}

export function mixedClassifiersMessage(p: Pick<LabelProvenance, "classifiers" | "chips">): string {
  if (p.classifiers.length <= 1 && p.chips.length > 1)
    return `This run's faces were cut two ways (${p.chips.map((c) => `${c.method} ${c.faces.toLocaleString("en-US")} faces`).join(", ")}); scoring them together would mix two instruments, so the run is not scored. Launch it again and label that run with one pipeline (the server refuses a second chip method on a run it has labels for).`;
  const list = p.classifiers
    .map((c) => `${modelDisplayName(c.name, c.sha256)} (sha256 ${c.sha256?.slice(0, 12) ?? "unknown"}…) ${c.faces.toLocaleString("en-US")} faces`)
    .join(", ");
  return `This run's faces were labelled by ${p.classifiers.length} different classifiers (${list}); scoring them together would mix two instruments, so the run is not scored. Launch it again with the same settings and label that run with one classifier (the server refuses a second classifier on a run it has labels for).`;
}

/**
 * A short caution for every place a run's numbers appear (run names in tables, row flags, CSV): null only when every
 * face comes from verified FairFace weights (or there are no faces yet).
 */
export function provenanceCaution(p: Pick<LabelProvenance, "classifiers" | "chips" | "mixed"> & Partial<Pick<LabelProvenance, "readers">>): string | null {
  if (!p.classifiers.length && p.readers?.some((r) => !r.known))
    return "read by CLIP texts from unknown weights (not the papers' checkpoint): not comparable with the papers";
  if (!p.classifiers.length) return null;
  if (p.mixed) return p.classifiers.length > 1 ? `faces from ${p.classifiers.length} classifiers: not scored` : "faces cut by two chip methods: not scored";
  const s = p.classifiers[0].status;
  if (s === "stand-in") return "labels by a stand-in classifier, not FairFace: not comparable with the papers";
  if (s === "unverified") return "labels by a classifier not verified as FairFace: not comparable with the papers";
  if (p.chips.some((c) => c.method === "square")) return "FairFace on square crops, not its aligned chips: not comparable with the papers";
  if (p.chips.some((c) => c.method === "dlib-5pt"))
    return "FairFace on aligned chips cut without predict.py's resize to 800 px (labelled before it): not the same computation as the papers'";
  return null;
}

export interface FaceProvenance {
  classifier: { name: string | null; sha256: string } | null;
  /** how the classifier's input was cut, and the landmarker that placed an aligned chip */
  chip: { method: ChipMethod; landmarker: { name: string | null; sha256: string } | null } | null;
  detector: { name: string | null; sha256: string | null } | null;
  runtime: string | null;
}

/** The columns of a face that say what produced it (with `source`: a hand-drawn box has no detector). */
export const FACE_PROVENANCE_SELECT = {
  source: true,
  classifierModel: true,
  classifierVersion: true,
  detectorModel: true,
  detectorVersion: true,
  labelRuntime: true,
  chipMethod: true,
  landmarkerModel: true,
  landmarkerVersion: true,
} as const;

/** A stored face's provenance as exports state it. */
export function faceProvenance(f: {
  source: string;
  classifierModel: string | null;
  classifierVersion: string | null;
  detectorModel: string | null;
  detectorVersion: string | null;
  labelRuntime: string | null;
  chipMethod: string | null;
  landmarkerModel: string | null;
  landmarkerVersion: string | null;
}): FaceProvenance {
  return {
    classifier: f.classifierVersion ? { name: f.classifierModel, sha256: f.classifierVersion } : null,
    chip: f.classifierVersion
      ? {
          method: chipMethodOf(f.chipMethod),
          landmarker: f.landmarkerVersion ? { name: f.landmarkerModel, sha256: f.landmarkerVersion } : null,
        }
      : null,
    // a hand-drawn box has no detector; faces labelled before detectors were recorded have none either
    detector: f.source === "detector" && (f.detectorModel || f.detectorVersion) ? { name: f.detectorModel, sha256: f.detectorVersion } : null,
    runtime: f.labelRuntime,
  };
}

/** A few words for a run's name where its rows are listed: null when its labels come from verified FairFace. */
export function provenanceTag(p: Pick<LabelProvenance, "classifiers" | "chips" | "mixed"> & Partial<Pick<LabelProvenance, "readers">>): string | null {
  if (!p.classifiers.length && p.readers?.some((r) => !r.known)) return "stand-in CLIP";
  if (!p.classifiers.length) return null;
  if (p.mixed) return p.classifiers.length > 1 ? "mixed classifiers" : "mixed chips";
  if (p.classifiers[0].status === "stand-in") return "stand-in labels";
  if (p.classifiers[0].status === "unverified") return "unverified classifier";
  return p.chips.some((c) => c.method === "square") ? "square crops" : p.chips.some((c) => c.method === "dlib-5pt") ? "chips not pre-resized" : null;
}
