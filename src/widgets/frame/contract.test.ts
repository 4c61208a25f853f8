import { describe, expect, it } from "vitest";
import { frameWidget } from "./contract.js";

const parse = frameWidget.parse;

describe("Frame config", () => {
  it("keeps an http or https URL", () => {
    expect(parse({ url: "https://example.com/status" })).toEqual({
      url: "https://example.com/status",
      title: "",
    });
    expect(parse({ url: "http://10.0.0.2:3000" }).url).toBe("http://10.0.0.2:3000/");
    // Typed without a scheme: a home address gets http, a public name https.
    expect(parse({ url: "10.0.0.2:3000" }).url).toBe("http://10.0.0.2:3000/");
    expect(parse({ url: "status.example.com" }).url).toBe("https://status.example.com/");
  });

  it("keeps a title the user set, trimmed", () => {
    expect(parse({ url: "https://example.com", title: "  Status  " }).title).toBe("Status");
  });

  it("falls back to no URL for anything else", () => {
    expect(frameWidget.defaults()).toEqual({ url: "", title: "" });
    expect(parse(null)).toEqual(frameWidget.defaults());
    for (const url of [
      "javascript:alert(1)",
      "data:text/html,<script>",
      "file:///etc/passwd",
      "ftp://x",
      "not a url",
      5,
      `https://example.com/${"x".repeat(2048)}`,
    ]) {
      expect(parse({ url })).toEqual({ url: "", title: "" });
    }
  });
});
