import type {
  AdminUser,
  ApiKey,
  ApiKeyScope,
  CreatedApiKey,
  CreatedInvite,
  DeviceSession,
  Instance,
  Invite,
  Me,
  Role,
} from "../../contract/operators";
import { ApiError, request } from "./api";

export type { AdminUser, ApiKey, ApiKeyScope, CreatedApiKey, CreatedInvite, DeviceSession, Invite, Me, Role };

/** What the sign-in and sign-up pages need to know about this server (public). */
export type InstanceInfo = Instance;
export type SignupMode = Instance["signupMode"];

/**
 * The scopes in the order the settings list them. The contract's own list is a value, and
 * importing it would bring the schema library into the bundle: this one is checked against it.
 */
export const API_KEY_SCOPES = [
  "read",
  "write",
  "notifications:write",
] as const satisfies readonly ApiKeyScope[];

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
