// Runs the browser verifier's re-scorer (a built rescore.js) on one bundle in a process of its own — as isolated as a
// browser's worker is from the server: nothing it registers or caches reaches the test's process. Prints the result
// as JSON. Usage: node browser-rescorer-child.mjs <verifier folder> <bundle.zip>
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { unzipSync } from "fflate";

const [dir, bundle] = process.argv.slice(2);
const { rescore } = await import(pathToFileURL(path.join(dir, "rescore.js")).href);
const r = await rescore(unzipSync(readFileSync(bundle)), { wasmBinary: readFileSync(path.join(dir, "sql-wasm.wasm")) });
process.stdout.write(JSON.stringify(r));
