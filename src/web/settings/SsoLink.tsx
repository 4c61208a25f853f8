import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { t as translate } from "../i18n/i18n";
import { describeError, request } from "../lib/api";
import { useInstance } from "../lib/operators-queries";
import { useToasts } from "../ui/Toasts";

/** The query parameters the identity provider's round trip comes back with. */
const OUTCOME_PARAMS = ["sso", "error", "error_description"] as const;

/**
 * What to say when the browser comes back from linking (`?sso=linked`, or `?sso=failed&error=`),
 * or null when it did not just come back from there.
 */
export function linkOutcome(
  params: URLSearchParams,
  provider: string,
): { tone: "success" | "error"; message: string } | null {
  const outcome = params.get("sso");
  if (outcome === "linked")
    return { tone: "success", message: translate("settings.sso.linkedNow", { provider }) };
  if (outcome !== "failed") return null;
  const code = params.get("error");
  if (code === "account_already_linked_to_different_user")
    return { tone: "error", message: translate("settings.sso.linkedElsewhere", { provider }) };
  // better-auth's answer when the provider does not vouch for the email of that login.
  if (code === "unable_to_link_account")
    return { tone: "error", message: translate("settings.sso.emailUnverified", { provider }) };
  return {
    tone: "error",
    message: translate("settings.sso.linkFailed", {
      provider,
      reason: (code ?? "unknown").replaceAll("_", " ").slice(0, 80),
    }),
  };
}

/**
 * Where the provider sends the browser back: this page with Settings open on this tab. Linking is
 * the only way single sign-on joins an account made with a password (docs/api.md), so it lives here.
 */
function landing(outcome: "linked" | "failed") {
  const params = new URLSearchParams(window.location.search);
  for (const key of OUTCOME_PARAMS) params.delete(key);
  params.set("settings", "sessions");
  params.set("sso", outcome);
  return `${window.location.pathname}?${params}`;
}

/** Says once how linking went, then takes the outcome out of the address. */
function useLinkOutcome(provider: string | undefined) {
  const location = useLocation();
  const navigate = useNavigate();
  const toasts = useToasts();
  const handled = useRef<string | null>(null);
  useEffect(() => {
    if (!provider) return;
    const params = new URLSearchParams(location.search);
    const outcome = linkOutcome(params, provider);
    if (!outcome || handled.current === location.search) return;
    handled.current = location.search;
    toasts.show(outcome);
    for (const key of OUTCOME_PARAMS) params.delete(key);
    const search = params.toString();
    navigate(
      { pathname: location.pathname, search: search ? `?${search}` : "" },
      { replace: true, state: location.state },
    );
  }, [provider, location.search, location.pathname, location.state, navigate, toasts]);
}

/** Settings → Sessions: single sign-on for this account, linked by its owner. */
export function SsoLink() {
  const { t } = useTranslation();
  const toasts = useToasts();
  const sso = useInstance().data?.sso ?? null;
  const accounts = useQuery({
    queryKey: ["auth-accounts"],
    queryFn: () => request<{ providerId: string }[]>("GET", "/api/auth/list-accounts"),
    enabled: sso !== null,
  });
  useLinkOutcome(sso?.displayName);
  const start = useMutation({
    mutationFn: (providerId: string) =>
      request<{ url: string }>("POST", "/api/auth/link-social", {
        provider: providerId,
        callbackURL: landing("linked"),
        errorCallbackURL: landing("failed"),
      }),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (e) =>
      toasts.show({
        tone: "error",
        message: t("settings.sso.startFailed", { reason: describeError(e) }),
      }),
  });
  if (!sso || !accounts.isSuccess) return null;

  const provider = sso.displayName;
  const linked = accounts.data.some((a) => a.providerId === sso.providerId);
  return (
    <>
      <h3 className="section-title">{t("settings.sso.title")}</h3>
      <ul className="provider-list">
        <li className="provider-row">
          <div className="key-main">
            <div className="key-title">
              <strong>{provider}</strong>
              <span className={`status-pill ${linked ? "is-on" : ""}`}>
                {linked ? t("settings.sso.linked") : t("settings.sso.notLinked")}
              </span>
            </div>
            <p className="key-meta muted">
              {linked ? t("settings.sso.linkedHint", { provider }) : t("settings.sso.hint", { provider })}
            </p>
          </div>
          {!linked && (
            <button
              type="button"
              className="button small"
              disabled={!sso.available || start.isPending || start.isSuccess}
              onClick={() => start.mutate(sso.providerId)}
            >
              {start.isPending || start.isSuccess
                ? t("auth.sso.opening")
                : t("settings.sso.link", { provider })}
            </button>
          )}
        </li>
      </ul>
      {!linked && !sso.available && <p className="field-hint">{t("auth.sso.unavailable")}</p>}
    </>
  );
}
