// Form messages in the form's voice, not zod's ("Too small: expected number to be >=0").
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrorsOf } from "../lib/validation/friendly";

describe("friendly form messages", () => {
  it("turns zod's built-in texts into readable ones and keeps a schema's own", () => {
    const schema = z.object({
      price: z.number().min(0),
      concurrency: z.number().int().min(1).max(256),
      name: z.string().min(1),
      models: z.array(z.string()).min(1),
      temperature: z.number(),
      url: z.string().refine(() => false, "an OpenAI-compatible model needs a base URL"),
    });
    const r = schema.safeParse({ price: -1, concurrency: 1000, name: "", models: [], temperature: Number.NaN, url: "x" });
    expect(r.success).toBe(false);
    const errors = fieldErrorsOf(r.error!.issues);
    expect(errors).toEqual({
      price: "must be at least 0",
      concurrency: "must be at most 256",
      name: "required",
      models: "choose at least one",
      temperature: "a number",
      url: "an OpenAI-compatible model needs a base URL",
    });
    expect(Object.values(errors).join(" ")).not.toMatch(/Too (small|big)|expected/);
  });
});
