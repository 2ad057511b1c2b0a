import path from "node:path";
import { describe, expect, it } from "vitest";
import { hasSecret, parseEnv, readSecret } from "../lib/env";

describe("server environment", () => {
  it("defaults to ./storage and a SQLite file inside it", () => {
    const e = parseEnv({});
    expect(e.dataDir).toBe(path.resolve("storage"));
    expect(e.databaseUrl).toBe(`file:${path.resolve("storage", "fof.db")}`);
    expect(e.PORT).toBe(3000);
  });
  it("names the bad variable but never echoes its value", () => {
    const secretish = "sk-live-THIS-MUST-NOT-LEAK";
    let message = "";
    try {
      parseEnv({ OPENAI_BASE_URL: secretish, FAIRFACE_MODEL_SHA256: secretish });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/OPENAI_BASE_URL/);
    expect(message).toMatch(/FAIRFACE_MODEL_SHA256/);
    expect(message).not.toContain(secretish);
  });
  it("reports whether a key is set without exposing it", () => {
    process.env.FOF_TEST_KEY = "secret";
    expect(hasSecret("FOF_TEST_KEY")).toBe(true);
    expect(hasSecret("FOF_TEST_ABSENT")).toBe(false);
    expect(readSecret("FOF_TEST_KEY")).toBe("secret");
    expect(() => readSecret("lower-case; rm -rf")).toThrow(/not a valid environment variable name/);
    delete process.env.FOF_TEST_KEY;
  });
});
