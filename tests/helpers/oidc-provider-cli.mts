// The test OpenID Connect provider as its own process, for the browser journey (playwright.config.ts starts it):
// tsx tests/helpers/oidc-provider-cli.mts <port> <redirect URI>
import { startOidcProvider } from "./oidc-provider.ts";

const [port, redirectUri] = process.argv.slice(2);
const idp = await startOidcProvider({ port: Number(port), redirectUris: [redirectUri!] });
console.log(`test OpenID Connect provider at ${idp.issuer}`);
