// The registry: one line per suite, nothing else. Nothing outside a suite's own folders names it
// (tests/suites.test.ts checks that), so adding a suite is its folders plus one line here.
export { factOrFair } from "./fact-or-fair";
export { dofair } from "./dofair";
export { faintbench } from "./faintbench";
export { fofOwn } from "./fof-own";
