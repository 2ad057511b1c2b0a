// Which team server a command goes to: read before any command's own code is loaded (no dependencies), so `fof
// --help` and local commands never load the HTTP client side (./remote.ts) or the validators it needs.
export interface Remote {
  server: string;
  token: string;
}

/** The server and token from the flags or the environment; null when neither names a server (work locally). */
export function remoteFrom(opts: { server?: string; token?: string }): Remote | null {
  const server = opts.server ?? process.env.FOF_SERVER;
  if (!server) return null;
  const token = opts.token ?? process.env.FOF_TOKEN;
  if (!token) throw new Error("--server needs a token: --token <token> or FOF_TOKEN (make one with `fof token create` or on the Account page)");
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new Error(`--server "${server}" is not a URL (e.g. https://fof.example.org)`);
  }
  if (url.protocol !== "https:" && !["localhost", "127.0.0.1", "[::1]"].includes(url.hostname))
    throw new Error(`--server ${url.origin}: a token is only sent over https (or to this machine)`);
  return { server: url.origin, token };
}
