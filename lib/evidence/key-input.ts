// The workbench's public key as a reader gives it to a verifier (the CLI's --key file, the /verify page's box): the
// PEM itself, or the JSON /.well-known/fof-evidence-key answers in a browser ({ pem, keyid, algorithm }). Anything
// else is named as not a key — never reported as a bundle that "does not verify". Client-safe: both verifiers use it.

const BEGIN = "-----BEGIN PUBLIC KEY-----";
const END = "-----END PUBLIC KEY-----";
export const KEY_SOURCE = "/.well-known/fof-evidence-key?format=pem";

export function readKeyInput(input: string): { pem: string } | { problem: string } {
  const text = input.trim();
  if (text.startsWith("{")) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { problem: `the key looks like JSON but does not parse: paste the PEM (${KEY_SOURCE}) or that address's JSON whole` };
    }
    const pem = (json as { pem?: unknown } | null)?.pem;
    if (typeof pem !== "string") return { problem: 'this JSON has no "pem" field: it is not the workbench\'s key' };
    return readKeyInput(pem);
  }
  if (!text.includes(BEGIN) || !text.includes(END))
    return { problem: `the key is not a PEM public key (${BEGIN} … ${END}): take it from the workbench's ${KEY_SOURCE}` };
  return { pem: text.slice(text.indexOf(BEGIN), text.indexOf(END) + END.length) + "\n" };
}
