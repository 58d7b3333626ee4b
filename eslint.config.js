// ESLint for the browser game's scripts (make test runs it; npm installs it from package.json).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["src/sorry/web/static/vendor/**", "node_modules/**", ".venv/**", "build/**"] },
  {
    files: ["src/sorry/web/static/**/*.js"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      ...js.configs.recommended.rules,
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
      "no-implicit-globals": "error",
      "no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
];
