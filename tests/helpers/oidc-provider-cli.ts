// The test OpenID Connect provider as its own process, for the browser journey (playwright.config.ts starts it):
// tsx tests/helpers/oidc-provider-cli.ts <port> <redirect URI>
import { startOidcProvider } from "./oidc-provider";

const [port, redirectUri] = process.argv.slice(2);
const idp = await startOidcProvider({ port: Number(port), redirectUris: [redirectUri!] });
console.log(`test OpenID Connect provider at ${idp.issuer}`);
