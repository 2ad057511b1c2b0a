// ESLint: Next's rules (React, hooks, Core Web Vitals, jsx-a11y) with typescript-eslint, on the whole tree.
// `npm test` runs it (scripts/test-all.mjs) and fails on any error.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import jsxA11y from "eslint-plugin-jsx-a11y";

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  // Accessibility beyond Next's few jsx-a11y rules: the plugin's recommended set (the plugin is registered above).
  {
    files: ["**/*.tsx"],
    rules: jsxA11y.flatConfigs.recommended.rules,
    // The UI kit's controls (components/ui/input.tsx) are the native elements to these rules.
    settings: { "jsx-a11y": { components: { Input: "input", Select: "select" } } },
  },
  {
    rules: {
      // `_`-prefixed names are deliberately unused (destructuring a field out, a required parameter).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", caughtErrors: "none" },
      ],
    },
  },
  // Numbers a verifier recomputes must come out the same in every engine and locale (the CLI under Node, /verify in
  // the visitor's browser): lib/ computes with lib/core/libm.ts and orders strings with lib/core/order.ts. Exempt:
  // libm itself, and the face chip's image geometry (lib/faces/chip.ts: pixel coordinates of a crop, measured once
  // where the labeller runs and never recomputed by a verifier).
  {
    files: ["lib/**/*.ts", "lib/**/*.tsx"],
    ignores: ["lib/core/libm.ts", "lib/faces/chip.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        ...[
          "log",
          "log2",
          "log10",
          "log1p",
          "exp",
          "expm1",
          "pow",
          "cbrt",
          "sin",
          "cos",
          "tan",
          "asin",
          "acos",
          "atan",
          "atan2",
          "sinh",
          "cosh",
          "tanh",
          "asinh",
          "acosh",
          "atanh",
          "hypot",
        ].map((property) => ({ object: "Math", property, message: "engine-approximated: use lib/core/libm.ts (the same bits in every engine)" })),
        { property: "localeCompare", message: "follows the default locale (a browser's is its user's): use byCodeUnits from lib/core/order.ts" },
      ],
      "no-restricted-syntax": [
        "error",
        {
          // x ** 2 is x·x in every engine, and powers of 2 or 4 (back-offs) and of constants (1024 ** 3) are exact
          selector:
            "BinaryExpression[operator='**']:not([right.value=2]):not([left.value=2]):not([left.value=4]):not([left.type='Literal'][right.type='Literal'])",
          message: "engine-approximated: use libm.pow (lib/core/libm.ts) or multiply",
        },
        { selector: "AssignmentExpression[operator='**=']", message: "engine-approximated: use libm.pow (lib/core/libm.ts)" },
        {
          selector: "CallExpression[callee.property.name=/^toLocale(String|DateString|TimeString)$/][arguments.length=0]",
          message: 'the default locale is the reader\'s: name one ("en-US")',
        },
      ],
    },
  },
  globalIgnores([
    ".next/**",
    "dist/**",
    "generated/**",
    "node_modules/**",
    "public/**",
    "storage/**",
    "test-results/**",
    "test-reports/**",
    "playwright-report/**",
    "next-env.d.ts",
    "tsconfig.tsbuildinfo",
  ]),
]);
