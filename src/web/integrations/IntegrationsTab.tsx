import { useTranslation } from "react-i18next";
import { IntegrationsPanel } from "./IntegrationsPanel";

/** Settings › Integrations: the user's saved connections to services, and those an admin made for everyone. */
export function IntegrationsTab() {
  const { t } = useTranslation();
  return (
    <div className="settings-section">
      <p className="muted">{t("integrations.intro")}</p>
      <IntegrationsPanel owner="me" />
    </div>
  );
}
