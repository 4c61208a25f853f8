// wawoff2 (Google's WOFF2 coder in WASM) ships no types; scripts/emoji-slice.ts and its test use these two.
declare module "wawoff2" {
  export function compress(sfnt: Uint8Array): Promise<Uint8Array>;
  export function decompress(woff2: Uint8Array): Promise<Uint8Array>;
}
