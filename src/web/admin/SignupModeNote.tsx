import { Trans, useTranslation } from "react-i18next";
import type { InstanceInfo, SignupMode } from "../lib/operators-api";
import { useInstance } from "../lib/operators-queries";
import { Skeleton } from "../ui/States";

const code = { code: <code /> };
const strong = { strong: <strong />, code: <code /> };

function ModeText({ mode }: { mode: SignupMode }) {
  const { t } = useTranslation();
  const [name, sentence] =
    mode === "open"
      ? [t("admin.signup.modes.open.name"), t("admin.signup.modes.open.sentence")]
      : mode === "closed"
        ? [t("admin.signup.modes.closed.name"), t("admin.signup.modes.closed.sentence")]
        : [t("admin.signup.modes.invite.name"), t("admin.signup.modes.invite.sentence")];
  return (
    <p>
      <strong>{t("admin.signup.label")}</strong> <span className="status-pill is-on">{name}</span> {sentence}
    </p>
  );
}

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

/** How people get in: the sign-up mode, and how to change it (the server's environment). */
export function SignupModeNote() {
  const { t } = useTranslation();
  const instance = useInstance();
  if (instance.isPending) return <Skeleton height={60} width="100%" />;
  const info = instance.data;
  if (!info) return <p className="muted">{t("admin.signup.unknown")}</p>;
  return (
    <div className="signup-mode" data-signup-mode={info.signupMode}>
      <ModeText mode={info.signupMode} />
      <p className="muted">
        <Trans i18nKey="admin.signup.howToChange" components={code} />
      </p>
      <SsoLine sso={info.sso} />
      {!info.passwordLogin && (
        <p>
          <Trans i18nKey="admin.signup.passwordsOff" components={strong} />
        </p>
      )}
    </div>
  );
}
