// What a verifier's check says, and the crypto the platform-free checks are given (node's in `fof verify`, WebCrypto
// in the browser's worker).
export interface BundleCheck {
  check: string;
  ok: boolean;
  detail: string;
}

export interface BundleCrypto {
  sha256(bytes: Uint8Array): Promise<string>;
  /** true when `sig` is an Ed25519 signature of `message` by the PEM public key */
  verify(message: Uint8Array, sig: Uint8Array, publicKeyPem: string): Promise<boolean>;
}
