import type { TFunction } from "i18next";
import type { AuditEvent } from "../../contract/audit";

/** What happened, in words; an action this version does not know is shown as it is stored. */
export function actionWords(t: TFunction, { action, detail }: AuditEvent): string {
  const sso = detail.method === "sso";
  switch (action) {
    case "auth.signed_in":
      return sso ? t("admin.audit.actions.signedInSso") : t("admin.audit.actions.signedIn");
    case "auth.sign_in_failed":
      return sso ? t("admin.audit.actions.signInFailedSso") : t("admin.audit.actions.signInFailed");
    case "user.created":
      return t("admin.audit.actions.userCreated");
    case "user.changed":
      return t("admin.audit.actions.userChanged");
    case "user.deleted":
      return t("admin.audit.actions.userDeleted");
    case "group.created":
      return t("admin.audit.actions.groupCreated");
    case "group.changed":
      return t("admin.audit.actions.groupChanged");
    case "group.deleted":
      return t("admin.audit.actions.groupDeleted");
    case "dashboard.shared":
      return t("admin.audit.actions.dashboardShared");
    case "dashboard.imported":
      return t("admin.audit.actions.dashboardImported");
    case "dashboard.restored":
      return t("admin.audit.actions.dashboardRestored");
    case "integration.created":
      return t("admin.audit.actions.integrationCreated");
    case "integration.changed":
      return t("admin.audit.actions.integrationChanged");
    case "integration.deleted":
      return t("admin.audit.actions.integrationDeleted");
    case "widget.action":
      if (detail.outcome === "refused") return t("admin.audit.actions.widgetActionRefused");
      if (detail.outcome === "failed") return t("admin.audit.actions.widgetActionFailed");
      return t("admin.audit.actions.widgetAction");
    default:
      return action;
  }
}

/** The thing it was done to, by the name it had then when the entry kept one. */
export function targetWords(event: AuditEvent): string {
  const { name, email, action } = event.detail as { name?: unknown; email?: unknown; action?: unknown };
  const label = typeof name === "string" ? name : typeof email === "string" ? email : event.target;
  return typeof action === "string" ? `${label} · ${action}` : label;
}
