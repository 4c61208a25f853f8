import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "../ui/icons";
import { DashboardNameDialog } from "./dashboards";

export function EmptyDashboards() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <section className="empty-page">
      <div className="empty-illustration" aria-hidden="true">
        <span />
        <span />
        <span />
        <span />
      </div>
      <h1>{t("dashboard.none.title")}</h1>
      <p className="muted">{t("dashboard.none.text")}</p>
      <button type="button" className="button primary" onClick={() => setOpen(true)}>
        <Icon name="plus" size={16} /> {t("dashboard.none.create")}
      </button>
      {open && <DashboardNameDialog mode="create" onClose={() => setOpen(false)} />}
    </section>
  );
}
