export const ROOT: string;
/** The `dist/` folder `npm start` runs. */
export const DIST: string;
export type Part = "web" | "server";
export const PARTS: Record<Part, { inputs: string[]; folder: string; output: string }>;
export function isStale(part: Part, dist?: string): boolean;
export function build(parts: Part[], options?: { dist?: string; quiet?: boolean }): Promise<void>;
export function buildWeb(outdir?: string, options?: { quiet?: boolean }): void;
/** Answers esbuild's metafile: what each output file holds and imports. */
export function buildServer(outdir?: string): Promise<import("esbuild").Metafile>;
