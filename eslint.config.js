// Lints the generator (src/) and the runtime library every generated project carries (runtime/).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "generated/**", ".tmp/**", "node_modules/**"] },
  {
    files: ["src/**/*.ts", "runtime/**/*.ts", "runtime/**/*.tsx"],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    rules: {
      // `_name` marks a parameter an override may use and the default ignores.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
      "no-control-regex": "off",
      // The bounds of docs/architecture.md, counted as a reader meets them (comments and blank lines too).
      "max-lines": ["error", { max: 400, skipBlankLines: false, skipComments: false }],
      "max-lines-per-function": ["error", { max: 60, skipBlankLines: false, skipComments: false, IIFEs: true }],
    },
  },
  {
    // The generated project's own test suites (runtime/*/test/): one describe per suite holds its
    // cases, and their factories take records of any resource; tests are outside the bounds.
    files: ["runtime/*/test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "max-lines": "off",
      "max-lines-per-function": "off",
    },
  },
);
