import type { Bootstrap } from "../../contract/bootstrap";
import type { DashboardDocument } from "../../contract/dashboard-document";
import type { ProviderStatus } from "../../contract/data";
import type { Problem } from "../../contract/errors";
import type { LookValue } from "../../contract/look";
import type { NotificationType } from "../../contract/notifications";
import type { Provider } from "../../contract/providers";
import type {
  Account,
  CreateWidgetInput,
  Dashboard,
  Notification,
  Settings,
  UpdateSettingsInput,
  UpdateWidgetInput,
  Widget,
} from "../../contract/resources";
import type { SessionUser } from "../../contract/session";
import type { Presence } from "../../contract/sharing";
import type { PatchOperation } from "../../contract/widget-patch";
import { i18n, t } from "../i18n/i18n";
import { CLIENT_ID, CLIENT_ID_HEADER } from "./client-id";

export type { ProviderStatus, SessionUser };

/** An error answered by the API, carrying its problem details when the body had them. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | null,
    message: string,
    /** Seconds the server asked to wait (Retry-After), when it said. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }

  get code(): string | null {
    return this.problem?.code ?? null;
  }

  /** Field messages keyed by the last path segment ("/email" → "email"). */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const e of this.problem?.errors ?? []) {
      const key = e.path.split("/").filter(Boolean).pop() ?? "";
      if (key && !out[key]) out[key] = e.message;
    }
    return out;
  }
}

export interface SessionInfo {
  user: SessionUser;
  session: { id: string; expiresAt: string };
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RequestOptions {
  /** Lets a request outlive the page (saves flushed while the tab closes). */
  keepalive?: boolean;
}

export async function request<T>(method: Method, path: string, body?: unknown, options: RequestOptions = {}) {
  const headers: Record<string, string> =
    body === undefined ? { accept: "application/json" } : { "content-type": "application/json" };
  // Every write names this tab, so the live events it causes come back marked as its own.
  if (method !== "GET") headers[CLIENT_ID_HEADER] = CLIENT_ID;
  return readResponse<T>(
    fetch(path, {
      method,
      credentials: "same-origin",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      keepalive: options.keepalive,
    }),
  );
}

/** The JSON of an answer, or an ApiError carrying its problem details. */
export async function readResponse<T>(pending: Promise<Response>): Promise<T> {
  let response: Response;
  try {
    response = await pending;
  } catch {
    throw new ApiError(0, null, "network error");
  }
  const text = await response.text();
  if (!response.ok) {
    let problem: Problem | null = null;
    try {
      problem = JSON.parse(text) as Problem;
    } catch {
      // Not problem+json (a proxy page, say): the status alone has to do.
    }
    const retryAfter = Number.parseInt(response.headers.get("retry-after") ?? "", 10);
    throw new ApiError(
      response.status,
      problem,
      problem?.detail ?? `Request failed (${response.status})`,
      Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null,
    );
  }
  return (text ? JSON.parse(text) : null) as T;
}

export const api = {
  /** The first screen in one request: session, dashboards, settings, one dashboard's widgets. */
  bootstrap: (dashboardId?: string) => {
    const url = dashboardId
      ? `/api/bootstrap?dashboardId=${encodeURIComponent(dashboardId)}`
      : "/api/bootstrap";
    // Already on its way when early-bootstrap.js (index.html) asked for the same thing: taken once.
    const early = (window as { __tesseraBootstrap?: { url: string; response: Promise<Response> } })
      .__tesseraBootstrap;
    if (early) delete (window as { __tesseraBootstrap?: unknown }).__tesseraBootstrap;
    return early?.url === url ? readResponse<Bootstrap>(early.response) : request<Bootstrap>("GET", url);
  },
  auth: {
    session: () => request<SessionInfo | null>("GET", "/api/auth/get-session"),
    signUp: (input: { name: string; email: string; password: string; inviteToken?: string }) =>
      request<{ token: string; user: SessionUser }>("POST", "/api/auth/sign-up/email", input),
    signIn: (input: { email: string; password: string }) =>
      request<{ token: string; user: SessionUser }>("POST", "/api/auth/sign-in/email", input),
    signOut: () => request<unknown>("POST", "/api/auth/sign-out", {}),
    updateUser: (input: { name: string }) => request<unknown>("POST", "/api/auth/update-user", input),
  },
  dashboards: {
    list: () => request<Dashboard[]>("GET", "/api/dashboards"),
    create: (name: string) => request<Dashboard>("POST", "/api/dashboards", { name }),
    rename: (id: string, name: string) => request<Dashboard>("PUT", "/api/dashboards", { id, name }),
    setPublic: (id: string, name: string, isPublic: boolean) =>
      request<Dashboard>("PUT", "/api/dashboards", { id, name, isPublic }),
    setLook: (id: string, name: string, look: LookValue) =>
      request<Dashboard>("PUT", "/api/dashboards", { id, name, look }),
    remove: (id: string) => request<Dashboard>("DELETE", `/api/dashboards?id=${encodeURIComponent(id)}`),
    /** The export as a download: a plain link, so the browser saves it under the server's name. */
    exportUrl: (id: string) => `/api/dashboards/export?id=${encodeURIComponent(id)}`,
    import: (document: unknown) => request<DashboardWithWidgets>("POST", "/api/dashboards/import", document),
    duplicate: (id: string) => request<DashboardWithWidgets>("POST", "/api/dashboards/duplicate", { id }),
    versions: (id: string) =>
      request<DashboardVersion[]>("GET", `/api/dashboards/versions?id=${encodeURIComponent(id)}`),
    version: (versionId: string) =>
      request<DashboardDocument>(
        "GET",
        `/api/dashboards/versions/document?id=${encodeURIComponent(versionId)}`,
      ),
    restore: (id: string, versionId: string) =>
      request<DashboardWithWidgets>("POST", "/api/dashboards/restore", { id, versionId }),
    /** Tells the others watching the dashboard which widget the user is editing (null: none). */
    presence: (id: string, editing: string | null) =>
      request<unknown>("POST", "/api/dashboards/presence", { id, editing }),
  },
  widgets: {
    list: (dashboardId: string) =>
      request<Widget[]>("GET", `/api/widgets?dashboardId=${encodeURIComponent(dashboardId)}`),
    create: (input: CreateWidgetInput) => request<Widget>("POST", "/api/widgets", input),
    update: (input: UpdateWidgetInput, options?: RequestOptions) =>
      request<Widget>("PUT", "/api/widgets", input, options),
    /** JSON Patch on the widget's config, applied to what is stored (paths start with /config). */
    patch: (input: { id: string; revision?: number; ops: PatchOperation[] }) =>
      request<Widget>("PATCH", "/api/widgets", input),
    remove: (id: string) => request<Widget>("DELETE", `/api/widgets?id=${encodeURIComponent(id)}`),
  },
  settings: {
    get: async () => {
      const list = await request<Settings[]>("GET", "/api/settings");
      const first = list[0];
      if (!first) throw new ApiError(404, null, "Your settings could not be found");
      return first;
    },
    update: (input: UpdateSettingsInput) => request<Settings>("PUT", "/api/settings", input),
  },
  notifications: {
    list: () => request<Notification[]>("GET", "/api/notifications"),
    create: (type: NotificationType, message: string) =>
      request<Notification>("POST", "/api/notifications", { type, message }),
    clear: () => request<{ success: boolean }>("DELETE", "/api/notifications"),
  },
  accounts: {
    list: () => request<Account[]>("GET", "/api/accounts"),
    disconnect: (provider: Provider) =>
      request<Account>("DELETE", `/api/accounts?provider=${encodeURIComponent(provider)}`),
  },
  /** null when this server does not offer the providers endpoint. */
  providers: async (): Promise<ProviderStatus[] | null> => {
    try {
      return await request<ProviderStatus[]>("GET", "/api/providers");
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 405)) return null;
      throw error;
    }
  },
};

/** "Try again in 30 s." from a Retry-After, or the plain advice without one. */
export function retryHint(error: ApiError): string {
  const seconds = error.retryAfter;
  if (seconds === null) return t("errors.retry.soon");
  if (seconds < 90) return t("errors.retry.seconds", { count: Math.max(1, seconds) });
  return t("errors.retry.minutes", { count: Math.round(seconds / 60) });
}

/**
 * What to tell the reader about a failure, in their language: chosen by the problem's stable
 * `code` (the English `detail` is for logs and API clients), then by status.
 */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return t("errors.offline");
    const wait = retryHint(error);
    const code = error.code;
    if (code?.startsWith("auth_") && i18n.exists(`errors.auth.${code.slice(5)}`))
      return t(`errors.auth.${code.slice(5)}`);
    if (code && i18n.exists(`errors.codes.${code}`)) return t(`errors.codes.${code}`, { wait });
    if (error.status === 401) return t("errors.codes.unauthenticated");
    if (error.status === 429) return t("errors.codes.rate_limited", { wait });
    if (error.status >= 500) return t("errors.codes.internal_error", { wait });
    return t("errors.refused", { status: error.status });
  }
  return error instanceof Error && error.message ? error.message : t("errors.unknown");
}

/**
 * A refused form's errors: the server's own message next to each of `fields` it complained about,
 * or, when it named none of them, `whole(reason)` for the form.
 */
export function formErrors<F extends string>(
  error: unknown,
  fields: readonly F[],
  whole: (reason: string) => string,
): Partial<Record<F | "form", string>> {
  const named = error instanceof ApiError ? error.fieldErrors() : {};
  const found = fields.filter((field) => named[field]);
  const errors = found.length
    ? Object.fromEntries(found.map((field) => [field, named[field]]))
    : { form: whole(describeError(error)) };
  return errors as Partial<Record<F | "form", string>>;
}

export type { PatchOperation, Presence };

export interface DashboardWithWidgets {
  dashboard: Dashboard;
  widgets: Widget[];
}

export interface DashboardVersion {
  id: string;
  createdAt: string;
  updatedAt: string;
  widgetCount: number;
  /** Who made it; null for versions from before sharing. */
  by: { id: string; name: string } | null;
}
