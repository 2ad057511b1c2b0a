// A delivery's signature: HMAC-SHA256 with the hook's secret over "<unix seconds>.<body>", sent as
// `x-fof-signature: t=<unix seconds>,v1=<hex>`. The timestamp is signed with the body, so a receiver that refuses old
// timestamps (verifySignature's tolerance) cannot be fed a recorded delivery again.
import { createHmac, timingSafeEqual } from "node:crypto";

export function sign(secret: string, body: string, at: number): string {
  const t = Math.floor(at / 1000);
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

/** What a receiver does: the signature matches the body and its time is within `toleranceS` of now. */
export function verifySignature(secret: string, header: string | null, body: string, now = Date.now(), toleranceS = 300): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? "");
  if (!m) return false;
  const t = Number(m[1]);
  if (Math.abs(now / 1000 - t) > toleranceS) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(m[2], "hex"));
}
