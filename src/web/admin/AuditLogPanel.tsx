import { useInfiniteQuery } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { AuditEvent } from "../../contract/audit";
import { request } from "../lib/api";
import { exactTime, relativeTime } from "../lib/relative-time";
import { QueryError, Skeleton } from "../ui/States";
import { AdminTable } from "./AdminTable";

interface AuditPage {
  events: AuditEvent[];
  nextCursor: string | null;
}

/** What happened, in words; an action this version does not know is shown as it is stored. */
function actionWords(t: TFunction, action: string): string {
  switch (action) {
    case "auth.signed_in":
      return t("admin.audit.actions.signedIn");
    case "auth.sign_in_failed":
      return t("admin.audit.actions.signInFailed");
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
      return t("admin.audit.actions.widgetAction");
    default:
      return action;
  }
}

/** The thing it was done to, by the name it had then when the entry kept one. */
function targetWords(event: AuditEvent): string {
  const { name, email, action } = event.detail as { name?: unknown; email?: unknown; action?: unknown };
  const label = typeof name === "string" ? name : typeof email === "string" ? email : event.target;
  return typeof action === "string" ? `${label} · ${action}` : label;
}

/** The admin page's audit log (DESIGN section 17): newest first, older pages on demand. */
export function AuditLogPanel() {
  const { t, i18n } = useTranslation();
  const log = useInfiniteQuery({
    queryKey: ["admin", "audit"],
    queryFn: ({ pageParam }) =>
      request<AuditPage>("GET", `/api/admin/audit?limit=50${pageParam ? `&cursor=${pageParam}` : ""}`),
    initialPageParam: "",
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  if (log.isPending) return <Skeleton height={120} width="100%" />;
  if (log.isError) return <QueryError query={log} />;
  const events = log.data.pages.flatMap((page) => page.events);
  if (events.length === 0) return <p className="muted">{t("admin.audit.empty")}</p>;
  return (
    <>
      <AdminTable
        caption={t("admin.audit.title")}
        columns={[
          t("admin.audit.when"),
          t("admin.audit.who"),
          t("admin.audit.what"),
          t("admin.audit.target"),
        ]}
        className="audit-table"
      >
        {events.map((event) => (
          <tr key={event.id}>
            <td title={exactTime(event.at, i18n.language)}>
              {relativeTime(event.at, undefined, i18n.language)}
            </td>
            <td>{event.actor.name}</td>
            <td>{actionWords(t, event.action)}</td>
            <td className="audit-target">{targetWords(event)}</td>
            <td />
          </tr>
        ))}
      </AdminTable>
      {log.hasNextPage && (
        <button
          type="button"
          className="button ghost small"
          disabled={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          {t("admin.audit.older")}
        </button>
      )}
    </>
  );
}
