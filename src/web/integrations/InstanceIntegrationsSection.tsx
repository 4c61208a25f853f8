import { useTranslation } from "react-i18next";
import { IntegrationsPanel } from "./IntegrationsPanel";

/** The admin page's Instance integrations: the ones every user may use, made and changed by admins. */
export function InstanceIntegrationsSection() {
  const { t } = useTranslation();
  return (
    <section className="admin-section" aria-labelledby="admin-integrations">
      <h2 id="admin-integrations">{t("admin.integrations.title")}</h2>
      <p className="muted">{t("admin.integrations.intro")}</p>
      <IntegrationsPanel owner="instance" />
    </section>
  );
}
