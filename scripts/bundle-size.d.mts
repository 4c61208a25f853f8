export const INITIAL_JS_BUDGET: number;
export interface BundleAsset {
  file: string;
  bytes: number;
  gzip: number;
  initial: boolean;
}
export interface BundleReport {
  assets: BundleAsset[];
  initialJsGzip: number;
  initialJsBytes: number;
  cssGzip: number;
  totalGzip: number;
  budget: number;
}
export function measureBundle(dist: string): BundleReport;
export function formatReport(report: BundleReport): string;
