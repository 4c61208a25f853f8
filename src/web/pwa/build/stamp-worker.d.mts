export interface WorkerBuild {
  version: string;
  shell: string[];
}
export function shellOf(indexHtml: string, files: { file: string; bytes: number }[]): string[];
export function versionOf(dist: string, files: string[]): string;
export function stampWorker(dist: string): WorkerBuild;
