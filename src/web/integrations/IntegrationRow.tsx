import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "../i18n/use-locale";
import { describeError } from "../lib/api";
import { exactTime, relativeTime } from "../lib/relative-time";
import { Icon } from "../ui/icons";
import { hostOf } from "./integration-draft";
import { type Integration, type IntegrationCheck, useTestIntegration } from "./integrations-api";

type LastCheck = NonNullable<Integration["lastCheck"]>;

/** The newer of the saved last check and one just made here (the list catches up after a refetch). */
function latest(saved: Integration["lastCheck"], fresh: LastCheck | null): Integration["lastCheck"] {
  if (!fresh) return saved;
  if (!saved) return fresh;
  return Date.parse(fresh.at) > Date.parse(saved.at) ? fresh : saved;
}

function CheckLine({ check }: { check: Integration["lastCheck"] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (!check) return <span className="muted">{t("integrations.row.neverChecked")}</span>;
  const when = relativeTime(check.at, undefined, locale);
  return (
    <>
      <span className={`status-pill ${check.ok ? "is-on" : "is-danger"}`}>
        {check.ok ? t("integrations.row.works") : t("integrations.row.fails")}
      </span>{" "}
      <span className="muted" title={exactTime(check.at, locale)}>
        {check.ok
          ? t("integrations.row.checkedOk", { when, latency: check.latencyMs })
          : t("integrations.row.checkedBad", { when })}
      </span>
      {check.detail && <span className="integration-detail">{check.detail}</span>}
    </>
  );
}

/**
 * One saved integration: its name, kind, service and whose it is, how its last check went, and
 * Test (anyone who may use it), Edit and Delete (who may change it).
 */
export function IntegrationRow({
  item,
  kindLabel,
  showOwner,
  onEdit,
  onDelete,
}: {
  item: Integration;
  kindLabel: string;
  /** "Everyone" on an instance integration, where the list mixes them with the user's own. */
  showOwner: boolean;
  onEdit(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation();
  const test = useTestIntegration();
  const [fresh, setFresh] = useState<LastCheck | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const run = () => {
    setFailure(null);
    test.mutate(
      { id: item.id },
      {
        onSuccess: (check: IntegrationCheck) => setFresh({ ...check, at: new Date().toISOString() }),
        onError: (error) => setFailure(t("integrations.test.failed", { reason: describeError(error) })),
      },
    );
  };

  return (
    <li className="provider-row integration-row" data-integration-id={item.id}>
      <div className="key-main">
        <div className="key-title">
          <strong className="integration-name">{item.name}</strong>
          <span className="status-pill">{kindLabel}</span>
          {showOwner && item.owner === "instance" && (
            <span className="status-pill is-everyone">
              <Icon name="users" size={12} /> {t("integrations.row.everyone")}
            </span>
          )}
          {item.provisionKey && (
            <span className="status-pill" title={t("integrations.row.provisionedHint")}>
              <Icon name="shield" size={12} /> {t("integrations.row.provisioned")}
            </span>
          )}
        </div>
        <p className="key-meta muted integration-host">{hostOf(item.url)}</p>
        <p className="key-meta integration-check" role="status">
          {test.isPending ? (
            <span className="muted">{t("integrations.test.running")}</span>
          ) : failure ? (
            <span className="danger-text">{failure}</span>
          ) : (
            <CheckLine check={latest(item.lastCheck, fresh)} />
          )}
        </p>
      </div>
      <div className="integration-actions">
        <button
          type="button"
          className="button ghost small"
          disabled={test.isPending}
          aria-label={t("integrations.row.testNamed", { name: item.name })}
          onClick={run}
        >
          {t("integrations.test.button")}
        </button>
        {item.editable && (
          <>
            <button
              type="button"
              id={`integration-edit-${item.id}`}
              className="button ghost small"
              aria-label={t("integrations.row.editNamed", { name: item.name })}
              onClick={onEdit}
            >
              {t("common.edit")}
            </button>
            <button
              type="button"
              className="button ghost small danger-text"
              aria-label={t("integrations.row.deleteNamed", { name: item.name })}
              onClick={onDelete}
            >
              {t("integrations.row.delete")}
            </button>
          </>
        )}
      </div>
    </li>
  );
}
