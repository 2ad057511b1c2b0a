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
