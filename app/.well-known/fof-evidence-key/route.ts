import { jsonRead } from "@/lib/server/http";
import { publicKeyInfo } from "@/lib/features/ledger/keys";

/**
 * The public key this workbench signs evidence bundles with, for `fof verify --key`: public (a verifier has no
 * account). `?format=pem` answers the PEM alone.
 */
export const GET = jsonRead("public", async (query) => {
  const key = publicKeyInfo();
  if (query.format === "pem") return new Response(key.pem, { headers: { "content-type": "application/x-pem-file", "cache-control": "no-store" } });
  return key;
});
