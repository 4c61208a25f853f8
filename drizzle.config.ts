import { defineConfig } from "drizzle-kit";

// Only generates SQL from the schema; migrations are applied by the server at start-up.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/server/db/schema.ts",
  out: "./drizzle",
});
