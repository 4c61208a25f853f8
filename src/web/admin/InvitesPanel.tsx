import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { useLocale } from "../i18n/use-locale";
import { describeError } from "../lib/api";
import { type CreatedInvite, type Invite, ignoreGone, operatorsApi } from "../lib/operators-api";
import { operatorKeys } from "../lib/operators-queries";
import { exactTime, expiresText, relativeTime } from "../lib/relative-time";
import { CopyField } from "../ui/CopyField";
import { Icon } from "../ui/icons";
import { ErrorState, Skeleton } from "../ui/States";
import { useToasts } from "../ui/Toasts";
import { InviteForm } from "./InviteForm";

/** The link the server answered, or the sign-up page's address built from the token. */
export function inviteLink(invite: Pick<CreatedInvite, "url" | "token">, origin = window.location.origin) {
  return invite.url || `${origin}/signup?invite=${encodeURIComponent(invite.token)}`;
}

/** The new invite's link, told once. */
function CreatedInviteBox({ invite, onDone }: { invite: CreatedInvite; onDone(): void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const role =
    invite.role === "admin" ? t("admin.roles.inSentence.admin") : t("admin.roles.inSentence.member");
  const when = relativeTime(invite.expiresAt, undefined, locale);
  return (
    <section className="secret-box" aria-labelledby="created-invite-title">
      <h3 id="created-invite-title" className="section-title">
        <Icon name="check" size={16} /> {t("admin.invites.created.title")}
      </h3>
      <p>
        {invite.email
          ? t("admin.invites.created.forEmail", { email: invite.email, role, when })
          : t("admin.invites.created.forAnyone", { role, when })}{" "}
        <Trans i18nKey="admin.invites.created.once" components={{ strong: <strong /> }} />
      </p>
      <CopyField value={inviteLink(invite)} label={t("admin.invites.created.link")} mono />
      <div className="dialog-actions start">
        <button type="button" className="button" onClick={onDone}>
          {t("common.done")}
        </button>
      </div>
    </section>
  );
}

/** Invites: create one (link shown once), the open ones, revoke. */
export function InvitesPanel() {
  const { t } = useTranslation();
  const locale = useLocale();
  const client = useQueryClient();
  const toasts = useToasts();
  const invites = useQuery({ queryKey: operatorKeys.invites, queryFn: operatorsApi.invites.list });
  const [created, setCreated] = useState<CreatedInvite | null>(null);
  const revoke = useMutation({
    mutationFn: (invite: Invite) => operatorsApi.invites.remove(invite.id).catch(ignoreGone),
    onSuccess: (_r, invite) => {
      client.setQueryData<Invite[]>(operatorKeys.invites, (list) => list?.filter((i) => i.id !== invite.id));
      if (created?.id === invite.id) setCreated(null);
      toasts.show({ tone: "success", message: t("admin.invites.revoked") });
    },
    onError: (e) =>
      toasts.show({ tone: "error", message: t("admin.invites.revokeFailed", { reason: describeError(e) }) }),
  });

  const onCreated = (invite: CreatedInvite) => {
    const { url: _url, token: _token, ...rest } = invite;
    client.setQueryData<Invite[]>(operatorKeys.invites, (list) => [
      { ...rest, createdAt: new Date().toISOString() },
      ...(list ?? []),
    ]);
    void client.invalidateQueries({ queryKey: operatorKeys.invites });
    setCreated(invite);
  };

  return (
    <>
      {created ? (
        <CreatedInviteBox invite={created} onDone={() => setCreated(null)} />
      ) : (
        <InviteForm onCreated={onCreated} />
      )}
      <h3 className="section-title">{t("admin.invites.open")}</h3>
      {invites.isPending ? (
        <Skeleton height={48} width="100%" />
      ) : invites.isError ? (
        <ErrorState
          error={invites.error}
          title={t("admin.invites.loadFailed")}
          onRetry={() => void invites.refetch()}
        />
      ) : invites.data.length === 0 ? (
        <p className="muted empty-line">{t("admin.invites.empty")}</p>
      ) : (
        <div className="table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">{t("admin.invites.open")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("admin.invites.columns.for")}</th>
                <th scope="col">{t("admin.roles.label")}</th>
                <th scope="col">{t("admin.invites.columns.created")}</th>
                <th scope="col">{t("admin.invites.columns.expires")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("admin.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invites.data.map((invite) => {
                const who = invite.email ?? t("admin.invites.anyone");
                return (
                  <tr key={invite.id}>
                    <th scope="row" className={invite.email ? undefined : "muted"}>
                      {who}
                    </th>
                    <td>{invite.role === "admin" ? t("admin.roles.admin") : t("admin.roles.member")}</td>
                    <td title={exactTime(invite.createdAt, locale)}>
                      {relativeTime(invite.createdAt, undefined, locale)}
                    </td>
                    <td title={exactTime(invite.expiresAt, locale)}>
                      {expiresText(invite.expiresAt, undefined, locale)}
                    </td>
                    <td className="cell-actions">
                      <button
                        type="button"
                        className="button ghost small"
                        aria-label={
                          invite.email
                            ? t("admin.invites.revokeFor", { email: invite.email.toLowerCase() })
                            : t("admin.invites.revokeForAnyone")
                        }
                        disabled={revoke.isPending && revoke.variables?.id === invite.id}
                        onClick={() => revoke.mutate(invite)}
                      >
                        {t("admin.invites.revoke")}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
