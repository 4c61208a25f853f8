import { useState } from "react";
import { describeError } from "../lib/api";
import { type InstanceInfo, operatorsApi } from "../lib/operators-api";

/**
 * "Sign in with Authentik": asks the server where the identity provider's page is and goes
 * there. Disabled, with a note, while the provider cannot be reached.
 */
export function SsoButton({ sso }: { sso: NonNullable<InstanceInfo["sso"]> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const { url } = await operatorsApi.ssoSignIn();
      window.location.assign(url);
    } catch (e) {
      setError(`Couldn't start single sign-on: ${describeError(e)}`);
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
        {busy ? "Opening sign-in…" : `Sign in with ${sso.displayName}`}
      </button>
      {!sso.available && (
        <p id="sso-unavailable" className="field-hint">
          Single sign-on is unavailable right now. Try again in a few minutes.
        </p>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
