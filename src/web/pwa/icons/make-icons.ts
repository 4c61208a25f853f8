// Writes the app's icons into src/web/public/icons (Vite copies them into the build as they are).
// Run after changing the logo: npx tsx src/web/pwa/icons/make-icons.ts
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { drawIcon, encodePng, ICONS, logoSvg } from "./draw";

export const ICON_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../public/icons");

writeFileSync(path.join(ICON_DIR, "icon.svg"), logoSvg());
for (const spec of ICONS) writeFileSync(path.join(ICON_DIR, spec.file), encodePng(drawIcon(spec), spec.size));
console.log(`wrote ${ICONS.length + 1} icons into ${ICON_DIR}`);
