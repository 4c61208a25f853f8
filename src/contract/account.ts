import type { Static } from "@sinclair/typebox";
import { AVATAR_MAX_CHARS, AVATAR_TYPES, EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN } from "./account-rules.js";
import { Type } from "./typebox.js";

export * from "./account-rules.js";

/** The signed-in user's own account (Settings › Profile): password, email and picture. */

const Password = (description: string, minLength = 1) =>
  Type.String({ minLength, maxLength: PASSWORD_MAX, description });

export const ProfileSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    email: Type.String(),
    emailVerified: Type.Boolean({
      description:
        "Whether the address was proven (an invite bound to it, or single sign-on); false again after a change",
    }),
    image: Type.Union([Type.String(), Type.Null()], {
      description: "The picture as a data: URL (PNG, JPEG or WebP), or a URL from single sign-on",
    }),
    hasPassword: Type.Boolean({
      description: "false for accounts that sign in with single sign-on only: no password to change",
    }),
  },
  { $id: "Profile" },
);
export type Profile = Static<typeof ProfileSchema>;

export const ChangePasswordBody = Type.Object({
  currentPassword: Password("The password in use now"),
  newPassword: Password(`The new password, ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, PASSWORD_MIN),
});

export const PasswordChangedSchema = Type.Object({
  signedOut: Type.Integer({
    minimum: 0,
    description: "How many other sessions were signed out; this one stays, under a new cookie",
  }),
});
export type PasswordChanged = Static<typeof PasswordChangedSchema>;

export const ChangeEmailBody = Type.Object({
  newEmail: Type.String({ format: "email", maxLength: EMAIL_MAX }),
  currentPassword: Password("The account's password, to prove it is its owner asking"),
});

export const AvatarBody = Type.Object({
  image: Type.String({
    minLength: 1,
    maxLength: AVATAR_MAX_CHARS,
    description: `A data: URL of a ${AVATAR_TYPES.join(", ")} image, base64; its bytes must be of that type`,
  }),
});

/** Every schema above with an $id, for the server to register (OpenAPI components). */
export const ACCOUNT_SCHEMAS = [ProfileSchema];
