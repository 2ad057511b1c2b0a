// The Merkle tree of RFC 9162 (Certificate Transparency 2.0, §2.1; the same as RFC 6962's): leaf hashes
// SHA-256(0x00 ‖ entry), interior nodes SHA-256(0x01 ‖ left ‖ right), the tree of n leaves split at the largest power
// of two below n. Inclusion proofs (an entry is at index i of the tree of size n with this root) and consistency
// proofs (the tree of size m is a prefix of the tree of size n: nothing was removed or changed, only appended), made
// and verified by the RFC's algorithms (§2.1.3, §2.1.4). Tested against transparency-dev/merkle's vectors
// (tests/fixtures/rfc9162). Platform-free and synchronous (noble's SHA-256): the server, the CLI and a browser alike.
import { sha256 } from "@noble/hashes/sha2.js";

export type Hash = Uint8Array;

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

export const leafHash = (entry: Uint8Array): Hash => sha256(concat(Uint8Array.of(0), entry));
const nodeHash = (left: Hash, right: Hash): Hash => sha256(concat(Uint8Array.of(1), left, right));
export const EMPTY_ROOT: Hash = sha256(new Uint8Array(0));

export const toHex = (h: Uint8Array) => [...h].map((b) => b.toString(16).padStart(2, "0")).join("");
export const fromHex = (s: string): Hash => {
  if (!/^([0-9a-f]{2})*$/i.test(s)) throw new Error("not a hex string");
  return Uint8Array.from(s.match(/../g) ?? [], (b) => parseInt(b, 16));
};
const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
/** Every hash a proof, a leaf or a root gives is a SHA-256: anything else is refused before any hashing. */
const hashes = (...hs: readonly Uint8Array[]) => hs.every((h) => h.length === 32);

/** The largest power of two strictly below n (n ≥ 2). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[lo:hi]) over leaf hashes. */
function subtreeRoot(leaves: readonly Hash[], lo: number, hi: number): Hash {
  if (hi - lo === 1) return leaves[lo]!;
  const k = split(hi - lo);
  return nodeHash(subtreeRoot(leaves, lo, lo + k), subtreeRoot(leaves, lo + k, hi));
}

/** The tree head (root hash) of these leaf hashes. */
export function rootHash(leaves: readonly Hash[]): Hash {
  return leaves.length === 0 ? EMPTY_ROOT : subtreeRoot(leaves, 0, leaves.length);
}

/** PATH(m, D[lo:hi]) of RFC 9162 §2.1.3.1: the audit path of leaf m. */
function path(m: number, leaves: readonly Hash[], lo: number, hi: number): Hash[] {
  if (hi - lo <= 1) return [];
  const k = split(hi - lo);
  return m < k ? [...path(m, leaves, lo, lo + k), subtreeRoot(leaves, lo + k, hi)] : [...path(m - k, leaves, lo + k, hi), subtreeRoot(leaves, lo, lo + k)];
}

/** The inclusion proof of the leaf at `index` in the tree of the first `size` leaves. */
export function inclusionProof(index: number, size: number, leaves: readonly Hash[]): Hash[] {
  if (!(index >= 0 && index < size && size <= leaves.length)) throw new Error(`no leaf ${index} in a tree of ${size}`);
  return path(index, leaves, 0, size);
}

/** SUBPROOF(m, D[lo:hi], b) of RFC 9162 §2.1.4.1. */
function subproof(m: number, leaves: readonly Hash[], lo: number, hi: number, whole: boolean): Hash[] {
  const n = hi - lo;
  if (m === n) return whole ? [] : [subtreeRoot(leaves, lo, hi)];
  const k = split(n);
  return m <= k
    ? [...subproof(m, leaves, lo, lo + k, whole), subtreeRoot(leaves, lo + k, hi)]
    : [...subproof(m - k, leaves, lo + k, hi, false), subtreeRoot(leaves, lo, lo + k)];
}

/** The consistency proof that the tree of `size1` leaves is a prefix of the tree of `size2`. */
export function consistencyProof(size1: number, size2: number, leaves: readonly Hash[]): Hash[] {
  if (!(size1 >= 0 && size1 <= size2 && size2 <= leaves.length)) throw new Error(`no consistency between ${size1} and ${size2}`);
  if (size1 === 0 || size1 === size2) return [];
  return subproof(size1, leaves, 0, size2, true);
}

/** RFC 9162 §2.1.3.2: whether `proof` shows `leaf` (its leaf hash) at `index` of the tree of `size` with `root`. */
export function verifyInclusion(index: number, size: number, leaf: Hash, proof: readonly Hash[], root: Hash): boolean {
  if (!(Number.isSafeInteger(index) && Number.isSafeInteger(size) && index >= 0 && index < size)) return false;
  if (!hashes(leaf, root, ...proof)) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0)
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
    } else r = nodeHash(r, p);
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && equal(r, root);
}

/**
 * RFC 9162 §2.1.4.2: whether `proof` shows the tree (size1, root1) is a prefix of (size2, root2). From an empty tree
 * there is nothing to prove (refused as meaningless, as transparency-dev/merkle does: the caller handles size 0).
 */
export function verifyConsistency(size1: number, size2: number, root1: Hash, root2: Hash, proof: readonly Hash[]): boolean {
  if (!(Number.isSafeInteger(size1) && Number.isSafeInteger(size2) && size1 >= 1 && size1 <= size2)) return false;
  if (size1 === size2) return proof.length === 0 && equal(root1, root2);
  if (!hashes(root1, root2, ...proof)) return false;
  if (proof.length === 0) return false;
  const path = [...proof];
  // A size1 that is a power of two is itself a node of the larger tree: its root heads the path.
  if ((size1 & (size1 - 1)) === 0) path.unshift(root1);
  let fn = size1 - 1;
  let sn = size2 - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0)
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
    } else sr = nodeHash(sr, c);
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && equal(fr, root1) && equal(sr, root2);
}
