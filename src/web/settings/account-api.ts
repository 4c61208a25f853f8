import type { PasswordChanged, Profile } from "../../contract/account";
import { request } from "../lib/api";

export type { Profile };

export const accountKeys = { profile: ["account"] as const };

/** The signed-in user's own account (Settings › Profile); credentials need a session, not an API key. */
export const accountApi = {
  profile: () => request<Profile>("GET", "/api/account"),
  changePassword: (input: { currentPassword: string; newPassword: string }) =>
    request<PasswordChanged>("POST", "/api/account/password", input),
  changeEmail: (input: { newEmail: string; currentPassword: string }) =>
    request<Profile>("POST", "/api/account/email", input),
  setAvatar: (image: string) => request<Profile>("PUT", "/api/account/avatar", { image }),
  removeAvatar: () => request<Profile>("DELETE", "/api/account/avatar"),
};
