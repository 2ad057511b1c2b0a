"use client";
// The review grid's keyboard: arrows move (rows by the grid's column count), Home/End, PageUp/PageDown (n/p) page,
// each suite's label keys label the focused face, a/Enter accepts and advances, x marks "not a face", Space selects,
// Shift+A accepts the selection, o/i opens the whole image, Delete deletes or restores a detection, u/Ctrl+Z undoes.
// Keys typed in a form control are left alone; labels wait until this annotator's page has loaded.
import { useEffect, useMemo, type Dispatch, type SetStateAction } from "react";
import { allLabelKeys, keyAction, type LabelSets } from "@/lib/review/label-set";
import type { ReviewFace } from "./api";
import type { useReviewActions } from "./use-review-actions";

/** Keys that accept or mark a face (the label sets add theirs): without an annotator they do nothing but say why. */
const MARK_KEYS = ["a", "A", "Enter", "x", "Delete"];

export function useQueueKeys({
  disabled,
  faces,
  current,
  stale,
  annotator,
  labelSets,
  actions,
  move,
  columns,
  page,
  advance,
  selected,
  setSelected,
  toggleHelp,
  setError,
  openImage,
}: {
  disabled: boolean;
  faces: ReviewFace[];
  current: ReviewFace | undefined;
  /** the page shown is the previous one while the next loads */
  stale: boolean;
  annotator: string;
  labelSets: LabelSets;
  actions: ReturnType<typeof useReviewActions>;
  move: (delta: number) => void;
  columns: () => number;
  page: (dir: "next" | "prev") => void;
  advance: () => void;
  selected: Set<number>;
  setSelected: Dispatch<SetStateAction<Set<number>>>;
  toggleHelp: () => void;
  setError: (m: string) => void;
  openImage: (face: ReviewFace) => void;
}) {
  const labelKeys = useMemo(() => new Set([...MARK_KEYS, ...allLabelKeys(labelSets)]), [labelSets]);
  useEffect(() => {
    if (disabled) return; // the image view has its own keys
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
      if (e.altKey) return;
      const mod = e.ctrlKey || e.metaKey;
      const k = e.key;
      let handled = true;
      if (mod && (k === "z" || k === "Z")) actions.undo();
      else if (mod && (k === "a" || k === "A")) setSelected(new Set(faces.map((f) => f.id)));
      else if (mod) handled = false;
      else if (k === "ArrowRight") move(1);
      else if (k === "ArrowLeft") move(-1);
      else if (k === "ArrowDown") move(columns());
      else if (k === "ArrowUp") move(-columns());
      else if (k === "Home") move(-faces.length);
      else if (k === "End") move(faces.length);
      else if (k === "PageDown" || k === "n") page("next");
      else if (k === "PageUp" || k === "p") page("prev");
      else if (k === "?") toggleHelp();
      else if (k === "u" || k === "Backspace") actions.undo();
      else if (k === "Escape") setSelected(new Set());
      else if (!current || stale)
        handled = false; // labels wait for this annotator's page
      else if (!annotator && labelKeys.has(k)) {
        // Nothing is labelled, skipped or moved without an account: the key only says why.
        setError("Sign in first: every label is stored under your account.");
      } else if (k === "A" && e.shiftKey) {
        const list = faces.filter((f) => selected.has(f.id));
        actions.accept(list.length ? list : []);
        setSelected(new Set());
      } else if (k === "a" || k === "Enter") {
        actions.accept([current]);
        advance();
      } else if (keyAction(labelSets[current.suite] ?? [], k)) {
        const act = keyAction(labelSets[current.suite] ?? [], k)!;
        actions.setLabel(current, act.attribute, act.value);
      } else if (k === "x") {
        actions.toggleNotAFace(current);
        advance();
      } else if (k === " ") {
        setSelected((s) => {
          const n = new Set(s);
          if (n.has(current.id)) n.delete(current.id);
          else n.add(current.id);
          return n;
        });
      } else if (k === "o" || k === "i") openImage(current);
      else if (k === "Delete") actions.setDeleted(current, !current.deleted);
      else handled = false;
      if (handled) e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });
}
