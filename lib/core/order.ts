// One order for strings wherever an order reaches a stated or signed value (a design's list of models, a table's
// rows): by UTF-16 code unit, the same in every engine and every locale. localeCompare() follows the default locale,
// which in a browser is its user's: Danish collation sorts "aa" after "z", so a verifier in Copenhagen would derive
// another order than the server signed (tests/verifier-chromium.integration.test.ts runs /verify's re-scorer under
// da-DK). ESLint forbids localeCompare in lib/ (eslint.config.mjs).
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
