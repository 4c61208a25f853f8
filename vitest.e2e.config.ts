import { defineConfig } from "vitest/config";
import base from "./vitest.config";

// `npm run test:e2e`: only the browser tests (mergeConfig would concatenate the include lists).
export default defineConfig({ ...base, test: { ...base.test, include: ["e2e/**/*.test.ts"] } });
