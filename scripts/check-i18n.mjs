// CI check of the translations (`npm run lint:i18n`), for the web app's catalogs and the server's
// (the texts it writes to people: reminders, alerts):
// 1. every key the code uses is in every catalog, and no catalog keeps a key nothing uses
//    (i18next-parser extracts into a scratch copy; any difference from the committed files fails),
//    and both hold the same languages;
// 2. no catalog has an empty translation;
// 3. no component shows a hard-coded string (eslint-plugin-i18next, see eslint.config.mjs).
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Each set of catalogs and the extraction config that fills it. */
const SETS = [
  { catalogs: "src/web/i18n/locales", config: "i18next-parser.config.mjs" },
  { catalogs: "src/server/i18n/locales", config: "i18next-parser.server.config.mjs" },
];
const bin = (name) => path.join("node_modules", ".bin", name);

/** "a.b.c" → value, for every leaf of a nested catalog. */
function leaves(tree, prefix = "", out = new Map()) {
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === "object") leaves(value, full, out);
    else out.set(full, value);
  }
  return out;
}

const read = (dir, file) => leaves(JSON.parse(readFileSync(path.join(dir, file), "utf8")));
const problems = [];

const languagesOf = (dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .join(", ");

for (const { catalogs, config } of SETS) {
  const scratch = mkdtempSync(path.join(tmpdir(), "tessera-i18n-"));
  try {
    cpSync(catalogs, scratch, { recursive: true });
    const extract = spawnSync(bin("i18next"), ["--config", config], {
      env: { ...process.env, I18N_CATALOGS: scratch },
      encoding: "utf8",
    });
    if (extract.status !== 0) {
      process.stderr.write(extract.stdout + extract.stderr);
      process.exit(1);
    }
    for (const file of readdirSync(catalogs).filter((f) => f.endsWith(".json"))) {
      const committed = read(catalogs, file);
      const wanted = read(scratch, file);
      const where = `${catalogs}/${file}`;
      for (const key of wanted.keys()) if (!committed.has(key)) problems.push(`${where}: missing key ${key}`);
      for (const key of committed.keys()) if (!wanted.has(key)) problems.push(`${where}: unused key ${key}`);
      for (const [key, value] of committed) {
        if (typeof value !== "string" || value.trim() === "")
          problems.push(`${where}: empty translation ${key}`);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const [web, server] = SETS.map(({ catalogs }) => languagesOf(catalogs));
if (web !== server)
  problems.push(`the web app has catalogs ${web}, the server ${server}: add the same languages to both`);

if (problems.length > 0) {
  console.error(problems.join("\n"));
  console.error(
    `\n${problems.length} catalog problem(s). \`npm run i18n:extract\` adds missing keys and drops unused ones.`,
  );
}

const lint = spawnSync(bin("eslint"), ["--max-warnings", "0", "src/web", "src/widgets"], {
  stdio: "inherit",
});
if (problems.length > 0 || lint.status !== 0) process.exit(1);
console.log("i18n: every catalog complete, no unused key, no hard-coded string in components");
