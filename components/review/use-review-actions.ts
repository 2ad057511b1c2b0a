"use client";

// The review page's writes as one hook: labels, accept, not-a-face, delete/restore and added faces, each optimistic
// in the query cache, saved in the background, and undoable (Ctrl+Z) in the order they were made.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { keyHint, type LabelSets } from "@/lib/review/label-set";
import { patchFace, postLabels, snapshot, storeServerFaces, updateCachedFaces, type MyLabel, type ReviewFace } from "./api";

const EMPTY: MyLabel = { values: {}, notAFace: false };

type UndoEntry =
  { kind: "label"; changes: Array<{ face: ReviewFace; prev: MyLabel | null }> } | { kind: "delete"; faceId: number } | { kind: "add"; faceId: number };

export interface ReviewActions {
  label: (changes: Array<{ face: ReviewFace; next: MyLabel }>) => void;
  accept: (faces: ReviewFace[]) => void;
  /** sets one attribute, keeping the others as the annotator (or else the model) had them */
  setLabel: (face: ReviewFace, attribute: string, value: string) => void;
  toggleNotAFace: (face: ReviewFace) => void;
  setDeleted: (face: ReviewFace, deleted: boolean, record?: boolean) => void;
  recordAdd: (faceId: number) => void;
  undo: () => void;
  fail: (message: string) => void;
}

const mineOf = (f: ReviewFace): MyLabel | null => (f.mine ? { values: { ...f.mine.values }, notAFace: f.mine.notAFace } : null);

/** The labels an annotator keeps while changing one attribute: their own, else the model's (they have seen it). */
function base(f: ReviewFace): MyLabel {
  const mine = mineOf(f);
  if (mine && !mine.notAFace) return mine;
  return { values: { ...(f.prediction?.values ?? {}) }, notAFace: false };
}

export function useReviewActions(
  annotator: string,
  labelSets: LabelSets,
  onError: (m: string | null) => void,
): ReviewActions & { undoDepth: number; saving: boolean } {
  const qc = useQueryClient();
  const undoStack = useRef<UndoEntry[]>([]);
  const [undoDepth, setUndoDepth] = useState(0);
  const push = useCallback((e: UndoEntry) => {
    undoStack.current.push(e);
    if (undoStack.current.length > 200) undoStack.current.shift();
    setUndoDepth(undoStack.current.length);
  }, []);

  // What this tab last asked for per face, before the server (or even the optimistic cache update) has it: a second
  // key pressed right after the first ("2" then "f") builds on the first instead of on the stale card.
  const intended = useRef(new Map<number, MyLabel>());
  const labels = useMutation({
    // One queue: saves reach the server in the order they were made, so the newest label is the one kept.
    scope: { id: "review-labels" },
    mutationFn: (changes: Array<{ faceId: number } & MyLabel>) => postLabels(annotator, changes),
    onMutate: async (changes) => {
      await qc.cancelQueries({ queryKey: ["review-queue"] });
      const rollback = snapshot(qc);
      const byId = new Map(changes.map((c) => [c.faceId, c]));
      updateCachedFaces(qc, (f) => {
        const c = byId.get(f.id);
        if (!c) return f;
        const empty = !c.notAFace && Object.keys(c.values).length === 0;
        const v = c.values;
        return {
          ...f,
          mine: empty
            ? null
            : { values: v, gender: v.gender ?? null, race: v.race ?? null, age: v.age ?? null, notAFace: c.notAFace, at: new Date().toISOString() },
        };
      });
      return { rollback };
    },
    onError: (e, changes, ctx) => {
      for (const c of changes) intended.current.delete(c.faceId);
      ctx?.rollback();
      onError(`Not saved: ${(e as Error).message}. Your change was rolled back.`);
    },
    onSuccess: (res) => {
      onError(null);
      storeServerFaces(qc, res.faces);
    },
  });
  const baseOf = useCallback((f: ReviewFace): MyLabel => {
    const i = intended.current.get(f.id);
    return i && !i.notAFace ? i : base(f);
  }, []);

  const deletion = useMutation({
    mutationFn: ({ face, deleted }: { face: ReviewFace; deleted: boolean }) => patchFace(face.id, { annotator, deleted }),
    onMutate: async ({ face, deleted }) => {
      const rollback = snapshot(qc);
      updateCachedFaces(qc, (f) => (f.id === face.id ? { ...f, deleted } : f));
      return { rollback };
    },
    onError: (e, _v, ctx) => {
      ctx?.rollback();
      onError(`Not saved: ${(e as Error).message}. Your change was rolled back.`);
    },
    onSuccess: (face) => {
      onError(null);
      storeServerFaces(qc, [face]);
    },
  });

  const label = useCallback(
    (changes: Array<{ face: ReviewFace; next: MyLabel }>, record = true) => {
      if (!annotator) return onError("Sign in first: every label is stored under your account.");
      const live = changes.filter((c) => !c.face.deleted);
      if (!live.length) return onError("A deleted detection cannot be labelled: restore it first (open the image with O).");
      if (record) push({ kind: "label", changes: live.map((c) => ({ face: c.face, prev: intended.current.get(c.face.id) ?? mineOf(c.face) })) });
      for (const c of live) intended.current.set(c.face.id, c.next);
      labels.mutate(live.map((c) => ({ faceId: c.face.id, ...c.next })));
    },
    [annotator, labels, onError, push],
  );

  return {
    undoDepth,
    saving: labels.isPending || deletion.isPending,
    label,
    accept: (faces) => {
      const ok = faces.filter((f) => f.prediction);
      if (!ok.length)
        return onError(`No model prediction to accept here: label by hand (${faces[0] ? keyHint(labelSets[faces[0].suite] ?? []) : "see the keys"}).`);
      label(ok.map((f) => ({ face: f, next: { values: { ...f.prediction!.values }, notAFace: false } })));
    },
    setLabel: (face, attribute, value) => {
      const b = baseOf(face);
      label([{ face, next: { ...b, values: { ...b.values, [attribute]: value } } }]);
    },
    toggleNotAFace: (face) => label([{ face, next: face.mine?.notAFace ? EMPTY : { ...EMPTY, notAFace: true } }]),
    setDeleted: (face, deleted, record = true) => {
      if (!annotator) return onError("Sign in first: every change is stored under your account.");
      if (record) push({ kind: "delete", faceId: face.id });
      deletion.mutate({ face, deleted });
    },
    recordAdd: (faceId) => push({ kind: "add", faceId }),
    fail: (m) => onError(m),
    undo: () => {
      const e = undoStack.current.pop();
      setUndoDepth(undoStack.current.length);
      if (!e) return onError("Nothing to undo.");
      if (e.kind === "label")
        label(
          e.changes.map((c) => ({ face: c.face, next: c.prev ?? EMPTY })),
          false,
        );
      else if (e.kind === "delete") deletion.mutate({ face: { id: e.faceId } as ReviewFace, deleted: false });
      else deletion.mutate({ face: { id: e.faceId } as ReviewFace, deleted: true });
    },
  };
}
