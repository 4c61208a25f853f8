import { afterAll, describe, expect, it } from "vitest";
import { switchLanguage } from "../i18n/i18n";
import { linkOutcome } from "./SsoLink";

const outcome = (query: string) => linkOutcome(new URLSearchParams(query), "Corp SSO");

describe("what Settings says on coming back from linking single sign-on", () => {
  afterAll(() => switchLanguage("en"));

  it("says it is linked, or why not, and nothing on other visits", () => {
    expect(outcome("settings=sessions")).toBeNull();
    expect(outcome("settings=sessions&sso=linked")).toEqual({
      tone: "success",
      message: "Corp SSO is linked: you can sign in with it now",
    });
    expect(outcome("sso=failed&error=account_already_linked_to_different_user")?.message).toBe(
      "That Corp SSO login is already linked to another account here",
    );
    expect(outcome("sso=failed&error=unable_to_link_account")).toEqual({
      tone: "error",
      message:
        "Corp SSO did not confirm that your email there is verified. Verify it at Corp SSO, then link again.",
    });
    expect(outcome("sso=failed&error=state_mismatch")).toEqual({
      tone: "error",
      message: "Couldn't link Corp SSO (state mismatch)",
    });
  });

  it("in German", async () => {
    await switchLanguage("de");
    expect(outcome("sso=linked")?.message).toBe(
      "Corp SSO ist verknüpft: Du kannst dich jetzt damit anmelden",
    );
  });
});
