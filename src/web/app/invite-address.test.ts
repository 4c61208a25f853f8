import { describe, expect, it } from "vitest";
import { invitedAddress } from "./AuthPage";

/** The sign-up page names the invite's address from the server's refusal (issue 35). */
describe("invitedAddress", () => {
  it("reads the address from an other-email refusal", () => {
    expect(
      invitedAddress("invite_required", "This invite is for another email address: bound@example.test"),
    ).toBe("bound@example.test");
  });

  it("finds none in other refusals, or from an older server that did not name it", () => {
    expect(invitedAddress("invite_required", "This invite is for another email address")).toBeNull();
    expect(invitedAddress("invite_required", "This invite has expired; ask for a new one")).toBeNull();
    expect(invitedAddress("signup_disabled", "another email address: x@y.z")).toBeNull();
    expect(invitedAddress("invite_required", undefined)).toBeNull();
  });
});
