import { useTranslation } from "react-i18next";
import { useEditingOthers } from "../lib/live-state";
import { Icon } from "../ui/icons";

/** "Ben is editing" on a widget's card while someone else has its settings open. */
export function EditingBadge({ dashboardId, widgetId }: { dashboardId: string; widgetId: string }) {
  const { t } = useTranslation();
  const names = useEditingOthers(dashboardId, widgetId);
  if (names.length === 0) return null;
  const label =
    names.length === 1
      ? t("live.editingBadge", { name: names[0] })
      : t("live.editingBadgeMany", { names: names.join(", ") });
  return (
    <span className="widget-editing" role="status" title={label}>
      <Icon name="pencil" size={12} />
      <span className="widget-editing-text">{label}</span>
    </span>
  );
}
