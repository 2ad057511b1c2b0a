// `Buffer` for the browser verifier's bundle (injected by scripts/build-verifier.mjs): the maintained browser port of
// Node's Buffer, for packages the scoring code imports that reach for it (CSV parsing of content files).
export { Buffer } from "buffer";
