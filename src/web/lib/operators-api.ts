import { ApiError, request } from "./api";

/** The signed-in user with their role (GET /api/me). */
export interface Me {
  id: string;
  name: string;
  email: string;
  role: Role;
  image: string | null;
}

export type Role = "admin" | "member";
export type SignupMode = "invite" | "open" | "closed";

/** What the sign-in and sign-up pages need to know about this server (public). */
export interface InstanceInfo {
  signupMode: SignupMode;
  passwordLogin: boolean;
  sso: null | { providerId: "oidc"; displayName: string; available: boolean };
  /** false on a fresh instance: the first account becomes the admin. */
  hasUsers: boolean;
}

export interface AdminUser {
  id: string;
  name: string;
  email: string;
  role: Role;
  createdAt: string;
  disabled: boolean;
  lastActiveAt: string | null;
}

export interface Invite {
  id: string;
  email: string | null;
  role: Role;
  createdAt: string;
  expiresAt: string;
}

/** The answer to creating an invite: the only time its link is told. */
export interface CreatedInvite {
  id: string;
  url: string;
  token: string;
  email: string | null;
  role: Role;
  expiresAt: string;
}

export const API_KEY_SCOPES = ["read", "write", "notifications:write"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export interface ApiKey {
  id: string;
  name: string;
  scopes: ApiKeyScope[];
  /** The key's first characters, to tell keys apart (`tsk_AbCd`). */
  start: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/** The answer to creating a key: the only time the key itself is told. */
export interface CreatedApiKey extends ApiKey {
  key: string;
}

export interface DeviceSession {
  id: string;
  current: boolean;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: string;
  lastActiveAt: string;
  expiresAt: string;
}

/** For removals: something already gone (404) is what was asked for. */
export function ignoreGone(error: unknown): null {
  if (error instanceof ApiError && error.status === 404) return null;
  throw error;
}

const q = (id: string) => `?id=${encodeURIComponent(id)}`;

/** null when this server does not have the route yet (an older server). */
async function optional<T>(run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 405)) return null;
    throw error;
  }
}

export const operatorsApi = {
  me: () => optional(() => request<Me>("GET", "/api/me")),
  instance: () => optional(() => request<InstanceInfo>("GET", "/api/instance")),
  /** Starts single sign-on: the server answers where to send the browser. */
  ssoSignIn: () =>
    request<{ url: string; redirect: boolean }>("POST", "/api/auth/sign-in/social", {
      provider: "oidc",
      callbackURL: "/",
      errorCallbackURL: "/signin",
    }),
  users: {
    list: () => request<AdminUser[]>("GET", "/api/admin/users"),
    update: (input: { id: string; role?: Role; disabled?: boolean }) =>
      request<AdminUser>("PUT", "/api/admin/users", input),
    remove: (id: string) => request<null>("DELETE", `/api/admin/users${q(id)}`),
  },
  invites: {
    list: () => request<Invite[]>("GET", "/api/admin/invites"),
    create: (input: { email?: string; role?: Role; expiresInHours?: number }) =>
      request<CreatedInvite>("POST", "/api/admin/invites", input),
    remove: (id: string) => request<null>("DELETE", `/api/admin/invites${q(id)}`),
  },
  keys: {
    list: () => request<ApiKey[]>("GET", "/api/keys"),
    create: (input: { name: string; scopes: ApiKeyScope[]; expiresInDays?: number }) =>
      request<CreatedApiKey>("POST", "/api/keys", input),
    remove: (id: string) => request<null>("DELETE", `/api/keys${q(id)}`),
  },
  sessions: {
    list: () => request<DeviceSession[]>("GET", "/api/sessions"),
    remove: (id: string) => request<null>("DELETE", `/api/sessions${q(id)}`),
    revokeOthers: () => request<unknown>("POST", "/api/auth/revoke-other-sessions", {}),
  },
};
