import { describe, expect, it } from "vitest";
import type { InstanceInfo } from "../lib/operators-api";
import { signinErrorMessage, signupOffer, signupRefusal, signupView } from "./signup-rules";

const base: InstanceInfo = { signupMode: "invite", passwordLogin: true, sso: null, hasUsers: true };
const with_ = (patch: Partial<InstanceInfo>): InstanceInfo => ({ ...base, ...patch });

describe("signupView", () => {
  it("shows the form on a fresh instance whatever the mode", () => {
    for (const signupMode of ["invite", "open", "closed"] as const)
      expect(signupView(with_({ signupMode, hasUsers: false }), null)).toBe("form");
  });

  it("asks for an invite on an invite-only server, and takes one", () => {
    expect(signupView(base, null)).toBe("invite_required");
    expect(signupView(base, "tok")).toBe("form");
  });

  it("says sign-up is closed, invite or not", () => {
    expect(signupView(with_({ signupMode: "closed" }), null)).toBe("closed");
    expect(signupView(with_({ signupMode: "closed" }), "tok")).toBe("closed");
  });

  it("shows the form when sign-up is open, or when the server does not say", () => {
    expect(signupView(with_({ signupMode: "open" }), null)).toBe("form");
    expect(signupView(null, null)).toBe("form");
  });

  it("sends everyone to single sign-on when passwords are off", () => {
    expect(signupView(with_({ passwordLogin: false, signupMode: "open" }), "tok")).toBe("sso_only");
  });
});

describe("signupOffer", () => {
  it("offers the sign-up link only where the form would take the person", () => {
    expect(signupOffer(with_({ signupMode: "open" }), null)).toBe("link");
    expect(signupOffer(with_({ hasUsers: false }), null)).toBe("link");
    expect(signupOffer(with_({ signupMode: "closed", hasUsers: false }), null)).toBe("link");
    expect(signupOffer(undefined, null)).toBe("link");
    // An invite in the address opens the way; without one, the page says how to get one.
    expect(signupOffer(base, "tok")).toBe("link");
    expect(signupOffer(base, null)).toBe("invite_only");
  });

  it("says how accounts come about where there is no link to follow", () => {
    expect(signupOffer(with_({ signupMode: "closed" }), null)).toBe("closed");
    expect(signupOffer(with_({ signupMode: "closed" }), "tok")).toBe("closed");
    expect(signupOffer(with_({ passwordLogin: false }), null)).toBe("none");
    expect(signupOffer(with_({ passwordLogin: false, signupMode: "open" }), "tok")).toBe("none");
  });
});

describe("messages", () => {
  it("explains refusals and sign-on errors", () => {
    expect(signupRefusal("invite_required", "This invite has expired; ask for a new one")).toBe(
      "This invite has expired; ask for a new one.",
    );
    expect(signupRefusal("invite_required", "This invite has already been used; ask for a new one")).toBe(
      "This invite has already been used; ask for a new one.",
    );
    expect(
      signupRefusal("invite_required", "Sign-up needs an invite; ask an admin of this instance"),
    ).toMatch(/needs an invite/);
    expect(signupRefusal("invite_required")).toMatch(/needs an invite/);
    expect(signupRefusal("signup_disabled")).toMatch(/closed/);
    expect(signupRefusal("auth_invalid_email")).toBeNull();
    expect(signinErrorMessage(null)).toBeNull();
    expect(signinErrorMessage("signup_disabled")).toMatch(/sign-up is closed/);
    expect(signinErrorMessage("invite_required")).toMatch(/invite link/);
    expect(signinErrorMessage("account_not_linked")).toMatch(/already exists.*can't be linked/);
    expect(signinErrorMessage("state_mismatch")).toBe(
      "Single sign-on didn't work (state mismatch). Try again, or ask an administrator.",
    );
  });
});
