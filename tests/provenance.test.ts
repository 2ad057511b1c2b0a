// What labelled a run's faces, and how far its numbers may be read beside the papers': only weights vouched for by
// checksum count as FairFace; the test stand-ins are marked; two classifiers are never scored together.
import { describe, expect, it } from "vitest";
import {
  classifierStatus,
  faceProvenance,
  mixedClassifiersMessage,
  modelDisplayName,
  provenanceCaution,
  provenanceTag,
  provenanceText,
  type LabelProvenance,
} from "../lib/faces/provenance";
import { parseEnv, verifiedFairFace } from "../lib/env";

const STANDIN = "8156c9d989417b3f2db78025b03b725138a91d30814f483cb437b5a57ac65eb4";
const REAL = "d".repeat(64);
const prov = (classifiers: LabelProvenance["classifiers"]): LabelProvenance => ({
  classifiers,
  detectors: [{ name: "ultraface-rfb-320", sha256: "6c0256ccd3164f844736a401faf936ec2930764a87ae39442180887d0c5c8854", faces: 3 }],
  runtimes: [{ runtime: "node-cpu", faces: 3 }],
  chips: [{ method: "dlib-5pt-800", faces: 3 }],
  readers: [],
  faces: classifiers.reduce((a, c) => a + c.faces, 0),
  mixed: classifiers.length > 1,
  comparable: classifiers.length > 0 && classifiers.every((c) => c.status === "fairface"),
});

describe("classifier status", () => {
  it("is FairFace only for vouched-for checksums; the stand-ins are stand-ins; a file name proves nothing", () => {
    expect(classifierStatus(REAL, [REAL])).toBe("fairface");
    expect(classifierStatus(STANDIN, [])).toBe("stand-in");
    expect(classifierStatus(STANDIN, [STANDIN])).toBe("fairface"); // an admin's word wins: their deployment, their call
    expect(classifierStatus(REAL, [])).toBe("unverified");
    expect(classifierStatus(null, [REAL])).toBe("unverified");
    expect(modelDisplayName("fairface-standin-single18", STANDIN)).toBe("FairFace stand-in (single output)");
    expect(modelDisplayName("fairface", REAL)).toBe("fairface");
  });
  it("reads the vouched-for checksums from FAIRFACE_MODEL_SHA256 and FOF_FAIRFACE_SHA256", () => {
    const e = parseEnv({ FAIRFACE_MODEL_SHA256: REAL.toUpperCase(), FOF_FAIRFACE_SHA256: ` ${"a".repeat(64)}, ${"B".repeat(64)} ` });
    expect(verifiedFairFace(e)).toEqual([REAL, "a".repeat(64), "b".repeat(64)]);
    expect(() => parseEnv({ FOF_FAIRFACE_SHA256: "not-a-sha" })).toThrow(/FOF_FAIRFACE_SHA256/);
  });
});

describe("cautions wherever numbers appear", () => {
  it("marks a stand-in and an unverified classifier, not verified FairFace, and refuses two classifiers", () => {
    expect(provenanceCaution(prov([]))).toBeNull();
    expect(provenanceCaution(prov([{ name: "fairface", sha256: REAL, faces: 3, status: "fairface" }]))).toBeNull();
    expect(provenanceTag(prov([{ name: "fairface", sha256: REAL, faces: 3, status: "fairface" }]))).toBeNull();
    expect(provenanceCaution(prov([{ name: "x", sha256: STANDIN, faces: 3, status: "stand-in" }]))).toMatch(
      /stand-in classifier, not FairFace: not comparable with the papers/,
    );
    expect(provenanceTag(prov([{ name: "x", sha256: STANDIN, faces: 3, status: "stand-in" }]))).toBe("stand-in labels");
    expect(provenanceCaution(prov([{ name: "fairface", sha256: REAL, faces: 3, status: "unverified" }]))).toMatch(/not verified as FairFace/);
    const mixed = prov([
      { name: "fairface", sha256: REAL, faces: 2, status: "fairface" },
      { name: "fairface-standin-single18", sha256: STANDIN, faces: 1, status: "stand-in" },
    ]);
    expect(provenanceCaution(mixed)).toBe("faces from 2 classifiers: not scored");
    expect(mixedClassifiersMessage(mixed)).toMatch(
      /2 different classifiers \(fairface \(sha256 dddddddddddd…\) 2 faces, FairFace stand-in \(single output\) \(sha256 8156c9d98941…\) 1 faces\)/,
    );
    expect(provenanceText(mixed)).toMatch(/MIXED/);
    expect(provenanceText(prov([{ name: "x", sha256: STANDIN, faces: 3, status: "stand-in" }]))).toMatch(
      /Detector: UltraFace RFB-320 \(sha256 6c0256ccd316…\)\. Runtime: node-cpu 3\./,
    );
  });
  it("states a face's provenance: a hand-drawn box has no detector", () => {
    const f = {
      classifierModel: "fairface",
      classifierVersion: REAL,
      detectorModel: "ultraface-rfb-320",
      detectorVersion: "e".repeat(64),
      labelRuntime: "browser-wasm",
      chipMethod: "dlib-5pt",
      landmarkerModel: "fr_landmark",
      landmarkerVersion: "f".repeat(64),
    };
    expect(faceProvenance({ ...f, source: "detector" })).toEqual({
      classifier: { name: "fairface", sha256: REAL },
      chip: { method: "dlib-5pt", landmarker: { name: "fr_landmark", sha256: "f".repeat(64) } },
      detector: { name: "ultraface-rfb-320", sha256: "e".repeat(64) },
      runtime: "browser-wasm",
    });
    expect(faceProvenance({ ...f, source: "manual" }).detector).toBeNull();
    expect(faceProvenance({ ...f, classifierVersion: null, source: "manual" }).classifier).toBeNull();
    // faces from before chips were recorded were square crops, and say so
    expect(faceProvenance({ ...f, chipMethod: null, landmarkerModel: null, landmarkerVersion: null, source: "detector" }).chip).toEqual({
      method: "square",
      landmarker: null,
    });
  });
  it("reads a CLIP run by the weights its texts came from: only a known checkpoint is the papers' instrument", () => {
    const reader = (weightsSha256: string, known: boolean) => ({ name: "clip-vit-l14-vision", sha256: "e".repeat(64), weightsSha256, known, images: 10 });
    const stand = { ...prov([]), chips: [], readers: [reader("0".repeat(64), false)] };
    expect(provenanceCaution(stand)).toMatch(/CLIP texts from unknown weights.*not comparable with the papers/);
    expect(provenanceTag(stand)).toBe("stand-in CLIP");
    expect(provenanceText(stand)).toMatch(
      /^Read by CLIP: clip-vit-l14-vision \(sha256 eeeeeeeeeeee…, texts from weights 000000000000…, 10 images\): not a known/,
    );
    const real = { ...prov([]), chips: [], readers: [reader("b8cca3fd41ae0c99ba7e8951adf17d267cdb84cd88be6f7c2e0eca1737a03836", true)] };
    expect(provenanceCaution(real)).toBeNull();
    expect(provenanceTag(real)).toBeNull();
  });

  it("reads FairFace on square crops as not comparable, and refuses a run cut two ways", () => {
    const real = [{ name: "fairface", sha256: REAL, faces: 3, status: "fairface" as const }];
    const square = { ...prov(real), chips: [{ method: "square" as const, faces: 3 }] };
    expect(provenanceCaution(square)).toMatch(/square crops, not its aligned chips: not comparable/);
    expect(provenanceTag(square)).toBe("square crops");
    expect(provenanceText(square)).toMatch(/Chips: square crops of the detector's boxes/);
    const two = {
      ...prov(real),
      mixed: true,
      chips: [
        { method: "dlib-5pt-800" as const, faces: 2 },
        { method: "square" as const, faces: 1 },
      ],
    };
    expect(provenanceCaution(two)).toBe("faces cut by two chip methods: not scored");
    expect(mixedClassifiersMessage(two)).toMatch(/cut two ways \(dlib-5pt-800 2 faces, square 1 faces\)/);
    // chips cut before predict.py's pre-resize was followed: aligned, but not the papers' computation
    const legacy = { ...prov(real), chips: [{ method: "dlib-5pt" as const, faces: 3 }] };
    expect(provenanceCaution(legacy)).toMatch(/cut without predict\.py's resize to 800 px/);
    expect(provenanceTag(legacy)).toBe("chips not pre-resized");
    expect(provenanceText(legacy)).toMatch(/Chips: aligned chips cut from the image at its own size/);
  });
});
