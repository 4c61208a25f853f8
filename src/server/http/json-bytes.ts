import { BoundedCache } from "../db/bounded-cache.js";

/** Below this an answer is written as text: encoding it costs less than looking it up. */
const LARGE_ANSWER_CHARS = 16 * 1024;

/**
 * The UTF-8 bytes of large JSON answers that are sent again and again (the cached hot lists),
 * encoded once. Node's HTTP layer joins the headers and a text body into one string before
 * writing: for a 200 KB dashboard list that was a fresh 200 KB copy on V8's heap per answer and
 * three quarters of the main thread under load. A Buffer body is written beside the headers as
 * is. Keyed by the text itself: V8 keeps a string's hash once computed, so the same cached answer
 * is found without reading it again.
 */
export class JsonBytes {
  private readonly encoded: BoundedCache<Buffer>;

  constructor(maxBytes: number) {
    this.encoded = new BoundedCache(maxBytes);
  }

  of(json: string): string | Buffer {
    if (json.length < LARGE_ANSWER_CHARS) return json;
    let bytes = this.encoded.get(json);
    if (!bytes) {
      bytes = Buffer.from(json, "utf8");
      // The key holds the text alive as well: both count against the bound.
      this.encoded.set(json, bytes, json.length + bytes.length);
    }
    return bytes;
  }
}
