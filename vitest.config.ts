import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // e2e/ drives the compiled app in Chromium (test/support/compiled.ts builds it once for all).
    include: ["test/**/*.test.ts", "src/**/*.test.ts", "src/**/*.test.tsx", "e2e/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ["test/support/setup.ts"],
    env: { NODE_ENV: "test" },
    // expect.poll waits on a condition (a page's render, a stored change): on a loaded CI machine
    // the default second is too short for a reload, while a condition that never holds still fails.
    expect: { poll: { timeout: 10_000 } },
  },
});
