import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { useLocale } from "../i18n/use-locale";
import { describeError } from "../lib/api";
import { useRemoveFromList } from "../lib/list-cache";
import { type CreatedInvite, type Invite, operatorsApi } from "../lib/operators-api";
import { operatorKeys } from "../lib/operators-queries";
import { exactTime, expiresText, relativeTime } from "../lib/relative-time";
import { SecretBox } from "../ui/CopyField";
import { QueryList } from "../ui/States";
import { useToasts } from "../ui/Toasts";
import { AdminTable } from "./AdminTable";
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
    <SecretBox
      titleId="created-invite-title"
      title={t("admin.invites.created.title")}
      value={inviteLink(invite)}
      label={t("admin.invites.created.link")}
      onDone={onDone}
    >
      {invite.email
        ? t("admin.invites.created.forEmail", { email: invite.email, role, when })
        : t("admin.invites.created.forAnyone", { role, when })}{" "}
      <Trans i18nKey="admin.invites.created.once" components={{ strong: <strong /> }} />
    </SecretBox>
  );
}

/** Invites: create one (link shown once; not while sign-up is closed), the open ones, revoke. */
export function InvitesPanel({ canInvite = true }: { canInvite?: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const client = useQueryClient();
  const toasts = useToasts();
  const invites = useQuery({ queryKey: operatorKeys.invites, queryFn: operatorsApi.invites.list });
  const [created, setCreated] = useState<CreatedInvite | null>(null);
  const remove = useRemoveFromList(operatorKeys.invites, operatorsApi.invites.remove);
  const revoke = useMutation({
    mutationFn: (invite: Invite) => remove(invite.id),
    onSuccess: (_r, invite) => {
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
        canInvite && <InviteForm onCreated={onCreated} />
      )}
      <h3 className="section-title">{t("admin.invites.open")}</h3>
      <QueryList
        query={invites}
        placeholderHeight={48}
        failed={t("admin.invites.loadFailed")}
        empty={t("admin.invites.empty")}
      >
        {(list) => (
          <AdminTable
            caption={t("admin.invites.open")}
            columns={[
              t("admin.invites.columns.for"),
              t("admin.roles.label"),
              t("admin.invites.columns.created"),
              t("admin.invites.columns.expires"),
            ]}
          >
            {list.map((invite) => (
              <tr key={invite.id}>
                <th scope="row" className={invite.email ? undefined : "muted"}>
                  {invite.email ?? t("admin.invites.anyone")}
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
            ))}
          </AdminTable>
        )}
      </QueryList>
    </>
  );
}
