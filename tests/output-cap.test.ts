import { describe, expect, it } from "vitest";
import { capOutput, MAX_STORED_OUTPUT, TRUNCATION_MARK } from "../lib/features/runs/worker";

describe("stored model output", () => {
  it("keeps a response up to 64 KiB as it is, and cuts a longer one with a visible mark", () => {
    expect(capOutput('{"answer": "A"}')).toBe('{"answer": "A"}');
    const exact = "x".repeat(MAX_STORED_OUTPUT);
    expect(capOutput(exact)).toBe(exact);
    const huge = "y".repeat(10 * 1024 * 1024);
    const cut = capOutput(huge);
    expect(cut.length).toBe(MAX_STORED_OUTPUT + TRUNCATION_MARK.length);
    expect(cut.endsWith(TRUNCATION_MARK)).toBe(true);
    expect(TRUNCATION_MARK).toMatch(/truncated/);
  });
});
