/** RFC 9457 problem details, as every error of the API is shaped. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** Stable snake_case code: one of ErrorCode, or `auth_<reason>` for sign-in and sign-up failures. */
  code: ErrorCode | `auth_${string}`;
  errors?: { path: string; message: string }[];
  requestId?: string;
  /** `conflict` of a write that named an older revision: the record as stored now. */
  current?: unknown;
}

export type ErrorCode =
  | "validation_failed"
  | "invalid_json"
  | "unsupported_media_type"
  | "payload_too_large"
  | "request_timeout"
  | "unauthenticated"
  | "forbidden"
  | "cross_site_request"
  | "not_found"
  | "account_not_connected"
  | "method_not_allowed"
  | "rate_limited"
  | "conflict"
  | "upstream_failed"
  | "upstream_timeout"
  | "reconnect_required"
  | "service_unavailable"
  | "provider_not_configured"
  | "address_not_allowed"
  | "limit_reached"
  | "quota_exceeded"
  | "too_many_streams"
  | "unsupported_version"
  | "insufficient_scope"
  | "last_admin"
  | "signup_disabled"
  | "invite_required"
  | "password_login_disabled"
  | "set_by_environment"
  | "provisioned"
  | "wrong_password"
  | "no_password"
  | "email_taken"
  | "internal_error";
