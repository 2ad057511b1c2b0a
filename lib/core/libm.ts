// The elementary functions every number the workbench states (scores, intervals, looks, prevalences) is computed
// with, identical to the last bit in every JavaScript engine. ECMAScript leaves Math.log, exp, pow, cbrt, sin, cos,
// hypot and `x ** y` (y ≠ 2) "implementation-approximated": Chromium 156 and Node 20 give different doubles for about
// one input in ten (tests/libm.test.ts measures it), and a bootstrap percentile, a bias correction's count or a
// minimiser's choice turns one last bit into another interval — /verify refused a genuine bundle that `fof verify`
// accepted. These are stdlib's JavaScript ports of FreeBSD's msun (fdlibm), made only of IEEE-754 arithmetic that
// every engine rounds alike (no fused multiply-add in JavaScript); their results equal Node's Math on the same inputs,
// so values stated before this module existed are reproduced unchanged. Math.sqrt, abs, floor, min and max are
// exactly specified and stay. ESLint forbids the approximated ones in lib/ (eslint.config.mjs).
import stdCbrt from "@stdlib/math-base-special-cbrt";
import stdCos from "@stdlib/math-base-special-cos";
import stdExp from "@stdlib/math-base-special-exp";
import stdLn from "@stdlib/math-base-special-ln";
import stdLog2 from "@stdlib/math-base-special-log2";
import stdPow from "@stdlib/math-base-special-pow";
import stdSin from "@stdlib/math-base-special-sin";

export const log: (x: number) => number = stdLn;
export const exp: (x: number) => number = stdExp;
export const log2: (x: number) => number = stdLog2;
export const cbrt: (x: number) => number = stdCbrt;
export const cos: (x: number) => number = stdCos;
export const sin: (x: number) => number = stdSin;
/** x^y (`x ** y` is approximated by the engine for every y but 2, which V8 and every engine compute as x·x). */
export const pow: (x: number, y: number) => number = stdPow;
/** √(a² + b²) from exactly rounded operations (Math.hypot is approximated; no overflow at the magnitudes used here). */
export const hypot = (a: number, b: number) => Math.sqrt(a * a + b * b);
