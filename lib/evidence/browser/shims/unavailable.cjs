// A Node module the browser verifier's bundle cannot have (fs, os, child_process …): imported by code the
// re-scorer loads but never calls on its path, so any use fails loudly with the name of what was reached.
function unavailable(name) {
  return new Proxy(function () {}, {
    get: (_t, key) =>
      key === "__esModule" ? false : key === "default" ? unavailable(name) : typeof key === "symbol" ? undefined : unavailable(`${name}.${key}`),
    apply: () => {
      throw new Error(`${name}() is not available in the browser verifier`);
    },
    construct: () => {
      throw new Error(`new ${name}() is not available in the browser verifier`);
    },
  });
}
module.exports = unavailable("node");
