import { Trans, useTranslation } from "react-i18next";
import type { InstanceInfo } from "../lib/operators-api";
import { useInstance } from "../lib/operators-queries";

const strong = { strong: <strong />, code: <code /> };

function SsoLine({ sso }: { sso: InstanceInfo["sso"] }) {
  const { t } = useTranslation();
  if (!sso)
    return (
      <p>
        <Trans i18nKey="admin.signup.sso.notSetUp" components={strong} />
      </p>
    );
  return (
    <p>
      <strong>{t("admin.signup.sso.label")}</strong>{" "}
      {sso.available
        ? t("admin.signup.sso.working", { name: sso.displayName })
        : t("admin.signup.sso.unavailable", { name: sso.displayName })}
    </p>
  );
}

/**
 * The other ways in, which only the server's environment sets: single sign-on and whether
 * passwords are on (the sign-up mode is an instance setting, InstanceSettingsPanel).
 */
export function SignInMethods() {
  const info = useInstance().data;
  if (!info) return null;
  return (
    <div className="signin-methods">
      <SsoLine sso={info.sso} />
      {!info.passwordLogin && (
        <p>
          <Trans i18nKey="admin.signup.passwordsOff" components={strong} />
        </p>
      )}
    </div>
  );
}
