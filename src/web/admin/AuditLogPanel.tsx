import { useInfiniteQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { AuditEvent } from "../../contract/audit";
import { request } from "../lib/api";
import { exactTime, relativeTime } from "../lib/relative-time";
import { QueryError, Skeleton } from "../ui/States";
import { AdminTable } from "./AdminTable";
import { actionWords, targetWords } from "./audit-words";

interface AuditPage {
  events: AuditEvent[];
  nextCursor: string | null;
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
            <td>{actionWords(t, event)}</td>
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
