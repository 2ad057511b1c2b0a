// DSSE as its specification defines it (secure-systems-lab/dsse, protocol.md): the pre-authentication encoding of its
// test vector, an Ed25519 signature over PAE that verifies, and one that fails when the payload, its type or the
// key changes. The score comparison names each value that differs and one that is missing.
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { pae, signEnvelope, verifyEnvelope } from "../lib/evidence/dsse";
import { compareScores } from "../lib/evidence/compare";

describe("DSSE", () => {
  it("encodes PAE as the specification's test vector", () => {
    expect(pae("http://example.com/HelloWorld", Buffer.from("hello world")).toString()).toBe("DSSEv1 29 http://example.com/HelloWorld 11 hello world");
  });

  it("verifies its own signature and nothing changed", () => {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const env = signEnvelope(Buffer.from('{"a":1}'), "application/vnd.in-toto+json", privateKey);
    expect(verifyEnvelope(env, publicKey)?.toString()).toBe('{"a":1}');
    expect(verifyEnvelope({ ...env, payload: Buffer.from('{"a":2}').toString("base64") }, publicKey)).toBeNull();
    expect(verifyEnvelope({ ...env, payloadType: "text/plain" }, publicKey)).toBeNull();
    expect(verifyEnvelope(env, generateKeyPairSync("ed25519").publicKey)).toBeNull();
    expect(verifyEnvelope({ ...env, signatures: [{ sig: "bm90IGEgc2lnbmF0dXJl" }] }, publicKey)).toBeNull();
  });
});

describe("score comparison", () => {
  it("lists every value, equal or not, named by its group", () => {
    const stated = {
      seed: 1,
      resamples: 10,
      method: "m",
      target: "population",
      scores: { groups: [{ model: "m", test: "objective", attribute: "race", sE: 0.5, sFact: 0.25 }] },
    };
    const same = compareScores(stated, structuredClone(stated));
    expect(same.every((s) => s.equal)).toBe(true);
    expect(same.map((s) => s.path)).toContain("scores.groups[m · objective · race].sE");
    const off = compareScores(stated, { ...stated, scores: { groups: [{ model: "m", test: "objective", attribute: "race", sE: 0.5000001 }] } });
    expect(off.filter((s) => !s.equal).map((s) => s.path)).toEqual(["scores.groups[m · objective · race].sE", "scores.groups[m · objective · race].sFact"]);
  });

  it("names each place by one path whatever the keys: a flat key set beside a made-up group cannot stand in for it", () => {
    const truth = {
      seed: 1,
      resamples: 10,
      method: "m",
      target: "population",
      scores: { groups: [{ model: "m", test: "objective", attribute: "race", sFact: 0.25 }] },
    };
    // the nested group made up, the true value under a key that reads like its path (hostile re-test, 2026-12-07)
    const forged = {
      ...truth,
      scores: { groups: [{ model: "m", test: "objective", attribute: "race", sFact: 0.95 }], "groups[m · objective · race].sFact": 0.25 },
    };
    const checks = compareScores(forged, truth);
    expect(checks.filter((c) => !c.equal).map((c) => c.path)).toEqual([
      "scores.groups[m · objective · race].sFact",
      "scores.groups\\[m · objective · race\\]\\.sFact",
    ]);
    // an empty row added to a table is a value too
    const padded = { ...truth, scores: { groups: [...truth.scores.groups, {}] } };
    expect(compareScores(padded, truth).some((c) => !c.equal)).toBe(true);
    // the words the page prints beside the scores are compared as well
    expect(compareScores({ ...truth, method: "± z, Wilson" }, truth).find((c) => c.path === "method")!.equal).toBe(false);
    expect(compareScores({ ...truth, target: "exact" }, truth).find((c) => c.path === "target")!.equal).toBe(false);
    // counts dropped from a bundle that must state them
    const counted = { ...truth, counts: [{ model: "m", failed: 3 }] };
    expect(compareScores(truth, counted, { requireCounts: true }).some((c) => !c.equal)).toBe(true);
    expect(compareScores(truth, counted).every((c) => c.equal)).toBe(true);
  });
});

describe("the bundle's report", () => {
  it("escapes what the run names and shows each score with its interval", async () => {
    const { evidenceReport } = await import("../lib/evidence/report");
    const html = evidenceReport({
      run: { id: "r1", name: '<script>alert("x")</script>', status: "completed", preset: "smoke", plannedCount: 2, spentUsd: 0 },
      contentVersion: "v1",
      stated: {
        suite: "fact-or-fair",
        seed: 1,
        resamples: 10,
        target: "population",
        method: "m",
        scores: {
          groups: [{ model: "<b>m</b>", modality: "llm", test: "objective", context: null, attribute: "race", n: 3, sE: 0.5 }],
          intervals: {
            groups: [{ model: "<b>m</b>", modality: "llm", test: "objective", context: null, attribute: "race", intervals: { sE: { lo: 0.25, hi: 0.75 } } }],
          },
        },
      },
      software: { name: "w", version: "1", commit: null },
      keyId: "k",
    });
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain("&lt;b&gt;m&lt;/b&gt;");
    expect(html).toContain('0.500 <span class="iv">[0.250, 0.750]</span>');
  });
});
