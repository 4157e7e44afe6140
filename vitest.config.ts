import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    // End-to-end suites start servers and databases; two cores do not gain from more workers.
    maxWorkers: 2,
  },
});
