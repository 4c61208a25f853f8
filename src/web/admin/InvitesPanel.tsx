import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
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

const roleWord = (role: Invite["role"]) => (role === "admin" ? "Admin" : "Member");

/** The new invite's link, told once. */
function CreatedInviteBox({ invite, onDone }: { invite: CreatedInvite; onDone(): void }) {
  return (
    <section className="secret-box" aria-labelledby="created-invite-title">
      <h3 id="created-invite-title" className="section-title">
        <Icon name="check" size={16} /> Invite link ready
      </h3>
      <p>
        {invite.email ? `For ${invite.email}` : "For anyone with the link"}, as{" "}
        {roleWord(invite.role).toLowerCase()}, expires {relativeTime(invite.expiresAt)}.{" "}
        <strong>The link is shown only now:</strong> copy it and send it to the person you invite. It works
        once.
      </p>
      <CopyField value={inviteLink(invite)} label="Invite link" mono />
      <div className="dialog-actions start">
        <button type="button" className="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

/** Invites: create one (link shown once), the open ones, revoke. */
export function InvitesPanel() {
  const client = useQueryClient();
  const toasts = useToasts();
  const invites = useQuery({ queryKey: operatorKeys.invites, queryFn: operatorsApi.invites.list });
  const [created, setCreated] = useState<CreatedInvite | null>(null);
  const revoke = useMutation({
    mutationFn: (invite: Invite) => operatorsApi.invites.remove(invite.id).catch(ignoreGone),
    onSuccess: (_r, invite) => {
      client.setQueryData<Invite[]>(operatorKeys.invites, (list) => list?.filter((i) => i.id !== invite.id));
      if (created?.id === invite.id) setCreated(null);
      toasts.show({ tone: "success", message: "Invite revoked: its link no longer works" });
    },
    onError: (e) =>
      toasts.show({ tone: "error", message: `Couldn't revoke the invite: ${describeError(e)}` }),
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
      <h3 className="section-title">Open invites</h3>
      {invites.isPending ? (
        <Skeleton height={48} width="100%" />
      ) : invites.isError ? (
        <ErrorState
          error={invites.error}
          title="Invites didn't load"
          onRetry={() => void invites.refetch()}
        />
      ) : invites.data.length === 0 ? (
        <p className="muted empty-line">No open invites.</p>
      ) : (
        <div className="table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">Open invites</caption>
            <thead>
              <tr>
                <th scope="col">For</th>
                <th scope="col">Role</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invites.data.map((invite) => {
                const who = invite.email ?? "Anyone with the link";
                return (
                  <tr key={invite.id}>
                    <th scope="row" className={invite.email ? undefined : "muted"}>
                      {who}
                    </th>
                    <td>{roleWord(invite.role)}</td>
                    <td title={exactTime(invite.createdAt)}>{relativeTime(invite.createdAt)}</td>
                    <td title={exactTime(invite.expiresAt)}>{expiresText(invite.expiresAt)}</td>
                    <td className="cell-actions">
                      <button
                        type="button"
                        className="button ghost small"
                        aria-label={`Revoke the invite for ${who.toLowerCase()}`}
                        disabled={revoke.isPending && revoke.variables?.id === invite.id}
                        onClick={() => revoke.mutate(invite)}
                      >
                        Revoke
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
