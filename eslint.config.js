// Lints the generator (src/) and the runtime library every generated project carries (runtime/).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "generated/**", ".tmp/**", "node_modules/**"] },
  {
    files: ["src/**/*.ts", "runtime/**/*.ts"],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    rules: {
      // `_name` marks a parameter an override may use and the default ignores.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // The runtime's generic layer takes descriptors of any resource; `any` there is deliberate and local.
      "@typescript-eslint/no-explicit-any": "off",
      "no-control-regex": "off",
    },
  },
);
