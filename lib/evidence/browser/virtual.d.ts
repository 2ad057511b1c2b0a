// Modules made by scripts/build-verifier.mjs for the browser verifier's bundle.
declare module "fof:migrations" {
  /** every committed migration's SQL, in order */
  const migrations: string[];
  export default migrations;
}
