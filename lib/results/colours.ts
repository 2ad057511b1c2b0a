// One colour per model, the same on every chart and page: derived from the model's id (not from its position in a
// series list, which changes with the selection). Client-safe.

export const MODEL_PALETTE = [
  "#4f46e5",
  "#059669",
  "#d97706",
  "#dc2626",
  "#0891b2",
  "#7c3aed",
  "#db2777",
  "#65a30d",
  "#0f766e",
  "#9333ea",
  "#b45309",
  "#2563eb",
] as const;

/** Grey for the paper's published points, which are reference marks rather than a model of ours. */
export const PUBLISHED_COLOUR = "#94a3b8";

/** The model's colour: FNV-1a of its id into the palette. */
export function modelColour(model: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < model.length; i++) {
    h ^= model.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return MODEL_PALETTE[(h >>> 0) % MODEL_PALETTE.length];
}
