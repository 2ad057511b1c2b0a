// The report a person reads says what was verified: report.html rendered again from the bundle's signed files
// (./report.ts is a pure function of them) must be the very page the bundle carries. Platform-free: `fof verify`
// and the browser's worker run it with their own SHA-256 (the signer's key id is the SHA-256 of its SPKI DER).
import type { BundleCheck } from "./check";
import { evidenceReport, type ReportInput } from "./report";

export const REPORT_NAME = "report.html";

const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : "");
const rows = (b: Uint8Array | undefined) =>
  text(b)
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const der = (pem: string) => Uint8Array.from(atob(pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "")), (c) => c.charCodeAt(0));

/** The report's inputs as the bundle holds them (the writer renders from the same JSON, so both agree to the byte). */
export function reportInput(files: Record<string, Uint8Array>, keyId: string): ReportInput {
  return {
    run: JSON.parse(text(files["run.json"])) as Record<string, unknown>,
    contentVersion: String((JSON.parse(text(files["content.json"])) as { version?: unknown }).version ?? ""),
    stated: JSON.parse(text(files["scores.json"])) as ReportInput["stated"],
    software: JSON.parse(text(files["software.json"])) as ReportInput["software"],
    keyId,
    models: rows(files["models.jsonl"]),
    runModels: rows(files["run-models.jsonl"]),
    ...(files["explanations.json"] ? { explanations: JSON.parse(text(files["explanations.json"])) as unknown } : {}),
  };
}

export async function reportCheck(files: Record<string, Uint8Array>, sha256: (b: Uint8Array) => Promise<string>, keyPemName: string): Promise<BundleCheck> {
  try {
    const keyId = await sha256(der(text(files[keyPemName])));
    const again = evidenceReport(reportInput(files, keyId));
    return again === text(files[REPORT_NAME])
      ? { check: "report", ok: true, detail: `${REPORT_NAME} is exactly the page the signed files render` }
      : { check: "report", ok: false, detail: `${REPORT_NAME} is not the page the signed files render: what a reader sees differs from what was verified` };
  } catch (e) {
    return { check: "report", ok: false, detail: `${REPORT_NAME} could not be rendered again: ${(e as Error).message}` };
  }
}
