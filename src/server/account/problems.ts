import { ProblemError } from "../http/errors.js";

// The account's own refusals: each says what to do, and each means nothing was changed.

export const wrongPassword = () =>
  new ProblemError(400, "wrong_password", "The current password is wrong; nothing was changed", {
    errors: [{ path: "/currentPassword", message: "is not this account's password" }],
  });

export const noPassword = () =>
  new ProblemError(
    409,
    "no_password",
    "This account signs in with single sign-on only and has no password here: its password and email are managed by the identity provider",
  );

export const emailTaken = () =>
  new ProblemError(409, "email_taken", "Another account already uses this email address", {
    errors: [{ path: "/newEmail", message: "is already in use" }],
  });
