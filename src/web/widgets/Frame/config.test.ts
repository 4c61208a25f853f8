import { describe, expect, it } from "vitest";
import { defaultFrameConfig, FRAME_SANDBOX, parseFrameConfig } from "./config";

describe("Frame config", () => {
  it("keeps an http or https URL", () => {
    expect(parseFrameConfig({ url: "https://example.com/status" })).toEqual({
      url: "https://example.com/status",
    });
    expect(parseFrameConfig({ url: "http://10.0.0.2:3000" })).toEqual({ url: "http://10.0.0.2:3000/" });
  });

  it("falls back to no URL for anything else", () => {
    expect(parseFrameConfig(null)).toEqual(defaultFrameConfig());
    for (const url of [
      "javascript:alert(1)",
      "data:text/html,<script>",
      "file:///etc/passwd",
      "ftp://x",
      "not a url",
      5,
    ]) {
      expect(parseFrameConfig({ url })).toEqual({ url: "" });
    }
  });

  it("never lets framed scripts share our origin", () => {
    const tokens = FRAME_SANDBOX.split(/\s+/);
    expect(tokens).toContain("allow-scripts");
    expect(tokens).not.toContain("allow-same-origin");
  });
});
