/** A 0–1 score shown ×100 with one decimal (the paper's scale); "–" when undefined. */
export function formatScore(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined || Number.isNaN(value) ? "–" : (value * 100).toFixed(digits);
}

export function Score({ value, digits = 2, emphasis }: { value: number | null | undefined; digits?: number; emphasis?: "best" | "second" }) {
  const text = formatScore(value, digits);
  if (emphasis === "best") return <strong className="tabular-nums">{text}</strong>;
  if (emphasis === "second") return <span className="tabular-nums underline decoration-dotted underline-offset-2">{text}</span>;
  return <span className="tabular-nums">{text}</span>;
}
