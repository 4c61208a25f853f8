import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // e2e/ drives the built app in Chromium; it builds the bundle itself in its beforeAll.
    include: ["test/**/*.test.ts", "src/**/*.test.ts", "src/**/*.test.tsx", "e2e/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ["test/support/setup.ts"],
    env: { NODE_ENV: "test" },
  },
});
