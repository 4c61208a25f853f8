import { describe, expect, it } from "vitest";
import type { AuditEvent } from "../../contract/audit";
import { i18n } from "../i18n/i18n";
import { actionWords, targetWords } from "./audit-words";

const event = (action: string, detail: Record<string, unknown>, target = "widget:1"): AuditEvent => ({
  id: "0190c6a0-0000-7000-8000-000000000000",
  at: "2026-11-28T10:00:00.000Z",
  actor: { id: null, name: "Unknown" },
  action,
  target,
  detail,
});

describe("audit log words", () => {
  const t = i18n.t.bind(i18n);

  it("says how someone signed in, and whether it worked", () => {
    expect(actionWords(t, event("auth.signed_in", { method: "password" }))).toBe("Signed in");
    expect(actionWords(t, event("auth.signed_in", { method: "sso" }))).toBe("Signed in with single sign-on");
    expect(actionWords(t, event("auth.sign_in_failed", { method: "sso", email: null }))).toBe(
      "Single sign-on failed",
    );
  });

  it("tells a widget action done from one that failed or was refused", () => {
    const words = (outcome: string) => actionWords(t, event("widget.action", { outcome }));
    expect(["done", "failed", "refused"].map(words)).toEqual([
      "Used a widget action",
      "A widget action failed",
      "A widget action was refused (not an editor)",
    ]);
    expect(actionWords(t, event("something.new", {}))).toBe("something.new");
  });

  it("names the target by the name it had, else by its id", () => {
    expect(targetWords(event("widget.action", { name: "Lights", action: "toggle" }))).toBe("Lights · toggle");
    expect(targetWords(event("auth.sign_in_failed", { email: null }, "sso:oidc"))).toBe("sso:oidc");
  });
});
