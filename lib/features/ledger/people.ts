// People in a bundle are pseudonyms: an annotator, whoever drew or deleted a box, marked a gold label or excluded an
// annotator appears as `person-<12 hex>`, a keyed hash (HMAC-SHA256) of their account id or name under a secret
// derived from the workbench's signing key. The same person has the same pseudonym in every bundle this workbench
// signs (a reader can follow one annotator across runs, and the team can say who it was), yet without the key no one
// can test a guessed name or e-mail against it. The consensus only needs people told apart, never named.
import { createHash, createHmac, type KeyObject } from "node:crypto";

export class Pseudonyms {
  private readonly secret: Buffer;
  private readonly memo = new Map<string, string>();

  constructor(signingKey: KeyObject) {
    this.secret = createHash("sha256")
      .update("fof-evidence-pseudonyms\0")
      .update(signingKey.export({ type: "pkcs8", format: "der" }))
      .digest();
  }

  of(person: string | null): string | null {
    if (person === null) return null;
    let p = this.memo.get(person);
    if (!p) {
      p = `person-${createHmac("sha256", this.secret).update(person).digest("hex").slice(0, 12)}`;
      this.memo.set(person, p);
    }
    return p;
  }
}
