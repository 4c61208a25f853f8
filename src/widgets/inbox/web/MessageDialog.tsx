import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { Trans, useTranslation } from "react-i18next";
import { useLocale } from "../../../web/i18n/use-locale";
import type { AppSettings } from "../../../web/lib/app-settings";
import { dataApi, dataKeys, type MailSummary } from "../../../web/lib/data-api";
import { Dialog } from "../../../web/ui/Dialog";
import { Icon } from "../../../web/ui/icons";
import { Skeleton } from "../../../web/ui/States";
import { QueryView } from "../../../web/widget-kit/data/QueryView";
import { retryData } from "../../../web/widget-kit/data/useWidgetData";
import { senderName } from "./logic";

/**
 * The server sanitizes mail HTML; it is shown in a sandboxed frame all the same (no scripts, a
 * unique origin, so nothing in it can reach this page or its cookies) under a CSP that allows
 * only https images and inline styles. Links open in a new tab, outside the sandbox.
 */
export function mailDocument(html: string): string {
  return `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src https: data:; style-src 'unsafe-inline'; font-src https:">
<base target="_blank">
<style>html{color-scheme:light}body{margin:16px;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#161922;background:#fff;overflow-wrap:anywhere}img{max-width:100%;height:auto}pre{white-space:pre-wrap}table{max-width:100%}</style>
</head><body>${html}</body></html>`;
}

export const MAIL_SANDBOX = "allow-popups allow-popups-to-escape-sandbox";

export default function MessageDialog({
  summary,
  settings,
  onClose,
}: {
  summary: MailSummary;
  settings: AppSettings;
  onClose(): void;
}) {
  const message = useQuery({
    queryKey: [...dataKeys.provider("suite"), "message", summary.id],
    queryFn: () => dataApi.mail.message(summary.id),
    staleTime: 5 * 60_000,
    retry: retryData,
  });
  const { t } = useTranslation();
  const locale = useLocale();
  const subject = summary.subject || t("widgets.inbox.noSubject");
  const doc = useMemo(() => (message.data ? mailDocument(message.data.html) : ""), [message.data]);
  const when = new Intl.DateTimeFormat(locale, {
    timeZone: settings.timezone,
    dateStyle: "medium",
    timeStyle: "short",
    hourCycle: settings.hourFormat === "12" ? "h12" : "h23",
  }).format(new Date(summary.date));

  return (
    <Dialog
      open
      onClose={onClose}
      size="lg"
      className="mail-dialog"
      title={subject}
      description={
        <>
          <Trans
            i18nKey="widgets.inbox.message.from"
            values={{ sender: senderName(summary.from) }}
            components={{ strong: <strong /> }}
          />
          {summary.from.name && summary.from.email ? ` <${summary.from.email}>` : ""} · {when}
          {message.data?.to ? ` · ${t("widgets.inbox.message.to", { to: message.data.to })}` : ""}
        </>
      }
      footer={
        message.data?.webUrl ? (
          <a className="button" href={message.data.webUrl} target="_blank" rel="noopener noreferrer">
            <Icon name="external" size={15} /> {t("widgets.inbox.message.openInGmail")}
          </a>
        ) : undefined
      }
    >
      <QueryView
        query={message}
        skeleton={
          <div className="mail-body-skeleton">
            <Skeleton height={16} width="70%" />
            <Skeleton height={16} width="90%" />
            <Skeleton height={16} width="60%" />
          </div>
        }
        errorTitle={t("widgets.inbox.message.failed")}
      >
        {() => (
          <iframe
            className="mail-body"
            title={t("widgets.inbox.message.frameTitle", { subject })}
            sandbox={MAIL_SANDBOX}
            referrerPolicy="no-referrer"
            srcDoc={doc}
          />
        )}
      </QueryView>
    </Dialog>
  );
}
