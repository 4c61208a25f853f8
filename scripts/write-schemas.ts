/**
 * Writes the JSON Schemas of the file formats into docs/ from the TypeBox schemas the server
 * checks them with. Usage: npx tsx scripts/write-schemas.ts (a test fails while they differ).
 */
import { writeFileSync } from "node:fs";
import { DashboardDocument } from "../src/contract/dashboard-document.js";

export const SCHEMA_FILES = { "docs/dashboard-document.schema.json": DashboardDocument };

export const schemaText = (schema: object) =>
  `${JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", ...schema }, null, 2)}\n`;

if (import.meta.url === `file://${process.argv[1]}`)
  for (const [file, schema] of Object.entries(SCHEMA_FILES)) writeFileSync(file, schemaText(schema));
