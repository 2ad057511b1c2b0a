import { describe, expect, it } from "vitest";
import { annotatorQuality, isGoldSlot, type GoldFace } from "@/lib/review/annotator-quality";

const labels = (entries: Array<[number, Record<string, string | null>]>) => new Map(entries);
/** annotator-major test data → the face-major map annotatorQuality reads */
function byFace(byAnnotator: Map<string, Map<number, Record<string, string | null>>>) {
  const out = new Map<number, Map<string, Record<string, string | null>>>();
  for (const [a, m] of byAnnotator) for (const [f, l] of m) out.set(f, (out.get(f) ?? new Map()).set(a, l));
  return out;
}

describe("annotators measured", () => {
  it("scores each annotator against gold and against the others' majority, with Wilson intervals", () => {
    const byAnnotator = new Map([
      [
        "ann",
        labels([
          [1, { gender: "male", race: "White" }],
          [2, { gender: "female", race: "Black" }],
          [3, { gender: "male", race: null }],
        ]),
      ],
      [
        "bo",
        labels([
          [1, { gender: "male", race: "Black" }],
          [2, { gender: "female", race: "Black" }],
          [3, { gender: "female", race: "Asian" }],
        ]),
      ],
      [
        "cy",
        labels([
          [1, { gender: "male", race: "White" }],
          [3, { gender: "female", race: "Asian" }],
        ]),
      ],
    ]);
    const gold: GoldFace[] = [
      { faceId: 1, labels: { gender: "male", race: "White" } },
      { faceId: 3, labels: { gender: "female" } },
    ];
    const q = annotatorQuality(byFace(byAnnotator), gold, ["gender", "race"]);
    const ann = q.find((x) => x.annotator === "ann")!;
    // Gold: face 1 gender ✓ race ✓, face 3 gender ✗ (race not gold) → 2 of 3.
    expect([ann.gold.agree, ann.gold.n]).toEqual([2, 3]);
    expect(ann.gold.lo!).toBeLessThan(2 / 3);
    // Peers: face 1 gender (bo, cy: male) ✓, race (Black, White: no majority) –; face 2 gender (bo) ✓, race (bo) ✓;
    // face 3 gender (bo, cy: female) ✗ → 3 of 4.
    expect([ann.peers.agree, ann.peers.n]).toEqual([3, 4]);
    const cy = q.find((x) => x.annotator === "cy")!;
    expect([cy.gold.agree, cy.gold.n]).toEqual([3, 3]);
    // bo left out of the consensus: nobody's peer any more (ann's face 2 has no other annotator; face 1: cy only).
    const without = annotatorQuality(byFace(byAnnotator), gold, ["gender", "race"], new Set(["bo"]));
    const ann2 = without.find((x) => x.annotator === "ann")!;
    // face 1 gender (cy male) ✓, race (cy White) ✓; face 3 gender (cy female) ✗, race: ann gave none → 2 of 3.
    expect([ann2.peers.agree, ann2.peers.n]).toEqual([2, 3]);
    expect(without.find((x) => x.annotator === "bo")!.peers.n).toBeGreaterThan(0);
  });

  it("serves gold at the configured rate, the same way on every reload", () => {
    const slots = Array.from({ length: 4000 }, (_, i) => isGoldSlot("ann", i, 0.1));
    const share = slots.filter(Boolean).length / slots.length;
    expect(share).toBeGreaterThan(0.08);
    expect(share).toBeLessThan(0.12);
    expect(Array.from({ length: 50 }, (_, i) => isGoldSlot("ann", i, 0.1))).toEqual(slots.slice(0, 50));
    expect(isGoldSlot("ann", 3, 0)).toBe(false);
  });
});
