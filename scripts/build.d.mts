export const ROOT: string;
export type Part = "web" | "server";
export const PARTS: Record<Part, { inputs: string[]; output: string }>;
export function isStale(part: Part): boolean;
export function build(parts: Part[]): Promise<void>;
/** Answers esbuild's metafile: what each output file holds and imports. */
export function buildServer(outdir?: string): Promise<import("esbuild").Metafile>;
