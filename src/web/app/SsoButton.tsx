import { useState } from "react";
import { useTranslation } from "react-i18next";
import { describeError } from "../lib/api";
import { type InstanceInfo, operatorsApi } from "../lib/operators-api";
import { FormError } from "../ui/fields";

/**
 * "Sign in with Authentik": asks the server where the identity provider's page is and goes
 * there. Disabled, with a note, while the provider cannot be reached.
 */
export function SsoButton({ sso }: { sso: NonNullable<InstanceInfo["sso"]> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const { url } = await operatorsApi.ssoSignIn();
      window.location.assign(url);
    } catch (e) {
      setError(t("auth.sso.startFailed", { reason: describeError(e) }));
      setBusy(false);
    }
  };
  return (
    <div className="sso">
      <button
        type="button"
        className="button block sso-button"
        disabled={!sso.available || busy}
        aria-describedby={sso.available ? undefined : "sso-unavailable"}
        onClick={() => void start()}
      >
        {busy ? t("auth.sso.opening") : t("auth.sso.signInWith", { provider: sso.displayName })}
      </button>
      {!sso.available && (
        <p id="sso-unavailable" className="field-hint">
          {t("auth.sso.unavailable")}
        </p>
      )}
      <FormError message={error} />
    </div>
  );
}
