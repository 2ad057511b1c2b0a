"use client";
// The review page's data access: fetchers for the review API and the optimistic cache updates they share.
import type { ChipMethod } from "@/lib/faces/provenance";
import type { QueryClient } from "@tanstack/react-query";
import type { ReviewFace } from "@/lib/features/review/faces";

export type { ReviewFace };
export interface QueuePage {
  faces: ReviewFace[];
  total: number;
  next: number | null;
  prev: number | null;
}
export interface ReviewImage {
  id: string;
  url: string;
  width: number;
  height: number;
  /** how the run's faces were cut for FairFace (null: none classified yet — the server's default applies) */
  chip: ChipMethod | null;
  faces: ReviewFace[];
}
/** One annotator's label of a face: a class per attribute of the face's suite (checked by the server), by id. */
export interface MyLabel {
  values: Record<string, string>;
  notAFace: boolean;
}

async function send<T>(url: string, method: string, body?: unknown): Promise<T> {
  const res = await fetch(url, { method, headers: body ? { "content-type": "application/json" } : undefined, body: body ? JSON.stringify(body) : undefined });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(json.error ?? `${method} ${url}: HTTP ${res.status}`);
  return json as T;
}

export const fetchQueue = (params: URLSearchParams) => send<QueuePage>(`/api/review/faces?${params}`, "GET");
export interface FacelessPage {
  total: number;
  images: Array<{ id: string; url: string; width: number; height: number; labelStatus: string; model: string; item: string; level: string; test: string }>;
}
export const fetchFaceless = (params: URLSearchParams) => send<FacelessPage>(`/api/review/images?${params}`, "GET");
export const fetchImage = (id: string, annotator: string) =>
  send<ReviewImage>(`/api/review/images/${id}?${new URLSearchParams(annotator ? { annotator } : {})}`, "GET");
export const postLabels = (annotator: string, labels: Array<{ faceId: number } & MyLabel>) =>
  send<{ faces: ReviewFace[] }>("/api/review/annotations", "POST", { annotator, labels });
export const postFace = (annotator: string, imageId: string, box: { x1: number; y1: number; x2: number; y2: number }) =>
  send<ReviewFace>("/api/review/faces", "POST", { annotator, imageId, box });
export const patchFace = (id: number, body: Record<string, unknown>) => send<ReviewFace>(`/api/review/faces/${id}`, "PATCH", body);

/** Applies `update` to every cached copy of the faces (queue pages and whole-image views). */
export function updateCachedFaces(qc: QueryClient, update: (f: ReviewFace) => ReviewFace) {
  qc.setQueriesData<QueuePage>({ queryKey: ["review-queue"] }, (page) => page && { ...page, faces: page.faces.map(update) });
  qc.setQueriesData<ReviewImage>({ queryKey: ["review-image"] }, (img) => img && { ...img, faces: img.faces.map(update) });
}

/** Puts the server's copies of faces in every cache (added faces go into their image's view). */
export function storeServerFaces(qc: QueryClient, faces: ReviewFace[]) {
  void qc.invalidateQueries({ queryKey: ["review-faceless"] });
  const byId = new Map(faces.map((f) => [f.id, f]));
  updateCachedFaces(qc, (f) => byId.get(f.id) ?? f);
  for (const f of faces) {
    qc.setQueryData<ReviewImage>(["review-image", f.imageId], (img) =>
      img && !img.faces.some((x) => x.id === f.id) ? { ...img, faces: [...img.faces, f] } : img,
    );
  }
}

/** A snapshot of the caches, to roll an optimistic update back. */
export function snapshot(qc: QueryClient) {
  const data = [...qc.getQueriesData({ queryKey: ["review-queue"] }), ...qc.getQueriesData({ queryKey: ["review-image"] })];
  return () => {
    for (const [key, value] of data) qc.setQueryData(key, value);
  };
}
