import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "../i18n/use-locale";
import { describeError } from "../lib/api";
import { replaceInList, useRemoveFromList } from "../lib/list-cache";
import { type AdminUser, operatorsApi, type Role } from "../lib/operators-api";
import { operatorKeys, useMe } from "../lib/operators-queries";
import { exactTime, formatDate, relativeTime } from "../lib/relative-time";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { FormError } from "../ui/fields";
import { IconButton } from "../ui/icons";
import { QueryError, Skeleton } from "../ui/States";
import { useToasts } from "../ui/Toasts";
import { AdminTable } from "./AdminTable";

type Change = { id: string; role?: Role; disabled?: boolean };

/**
 * A cell's column name, shown only where the table turns into one card per user (narrow
 * screens, operators.css); hidden from screen readers, which have the column heads.
 */
function CellLabel({ children }: { children: string }) {
  return (
    <span className="cell-label" aria-hidden="true">
      {children}
    </span>
  );
}

function UserRow({
  user,
  isMe,
  pending,
  onChange,
  onDelete,
}: {
  user: AdminUser;
  isMe: boolean;
  pending: boolean;
  onChange(change: Change): void;
  onDelete(): void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <tr className={user.disabled ? "is-disabled" : undefined} data-user-email={user.email}>
      <th scope="row">
        <span className="user-name">{user.name}</span>
        {isMe && <span className="status-pill">{t("admin.users.you")}</span>}
        {user.disabled && <span className="status-pill is-warn">{t("admin.users.disabled")}</span>}
      </th>
      <td className="user-email">{user.email}</td>
      <td className="user-role">
        <CellLabel>{t("admin.roles.label")}</CellLabel>
        <select
          aria-label={t("admin.users.roleOf", { name: user.name })}
          value={user.role}
          disabled={pending}
          onChange={(e) => onChange({ id: user.id, role: e.target.value as Role })}
        >
          <option value="member">{t("admin.roles.member")}</option>
          <option value="admin">{t("admin.roles.admin")}</option>
        </select>
      </td>
      <td className="user-disabled">
        <CellLabel>{t("admin.users.disabled")}</CellLabel>
        <input
          type="checkbox"
          role="switch"
          aria-checked={user.disabled}
          aria-label={t("admin.users.disabledOf", { name: user.name })}
          title={isMe ? t("admin.users.cantDisableSelf") : undefined}
          checked={user.disabled}
          disabled={pending || isMe}
          onChange={(e) => onChange({ id: user.id, disabled: e.target.checked })}
        />
      </td>
      <td className="user-last">
        <CellLabel>{t("admin.users.columns.lastActive")}</CellLabel>
        {user.lastActiveAt ? (
          <time dateTime={user.lastActiveAt} title={exactTime(user.lastActiveAt, locale)}>
            {relativeTime(user.lastActiveAt, undefined, locale)}
          </time>
        ) : (
          <span className="muted">{t("time.never")}</span>
        )}
      </td>
      <td className="user-joined muted">
        <CellLabel>{t("admin.users.columns.joined")}</CellLabel>
        <time dateTime={user.createdAt} title={exactTime(user.createdAt, locale)}>
          {formatDate(user.createdAt, locale)}
        </time>
      </td>
      <td className="cell-actions">
        <IconButton
          icon="trash"
          size={15}
          className="small danger"
          label={t("admin.users.delete", { name: user.name })}
          title={isMe ? t("admin.users.cantDeleteSelf") : t("admin.users.delete", { name: user.name })}
          disabled={isMe}
          onClick={onDelete}
        />
      </td>
    </tr>
  );
}

/** Everyone with an account: role, disabled, last active, delete (with confirmation). */
export function UsersTable() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const toasts = useToasts();
  const me = useMe();
  const users = useQuery({ queryKey: operatorKeys.users, queryFn: operatorsApi.users.list });
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const remove = useRemoveFromList(operatorKeys.users, operatorsApi.users.remove);
  const update = useMutation({
    mutationFn: (change: Change) => operatorsApi.users.update(change),
    onMutate: () => setError(null),
    onSuccess: (saved, change) => {
      replaceInList(client, operatorKeys.users, saved);
      toasts.show({
        tone: "success",
        message:
          change.role !== undefined
            ? saved.role === "admin"
              ? t("admin.users.nowAdmin", { name: saved.name })
              : t("admin.users.nowMember", { name: saved.name })
            : saved.disabled
              ? t("admin.users.nowDisabled", { name: saved.name })
              : t("admin.users.nowEnabled", { name: saved.name }),
      });
      // Your own role changed: the Administration entry follows.
      if (saved.id === me.data?.id) void client.invalidateQueries({ queryKey: operatorKeys.me });
    },
    onError: (e) => setError(describeError(e)),
  });

  if (users.isPending) return <Skeleton height={120} width="100%" />;
  if (users.isError) return <QueryError query={users} title={t("admin.users.loadFailed")} />;

  return (
    <>
      <FormError message={error} />
      <AdminTable
        className="users-table"
        caption={t("admin.users.title")}
        columns={[
          t("common.name"),
          t("admin.users.columns.email"),
          t("admin.roles.label"),
          t("admin.users.disabled"),
          t("admin.users.columns.lastActive"),
          t("admin.users.columns.joined"),
        ]}
      >
        {users.data.map((user) => (
          <UserRow
            key={user.id}
            user={user}
            isMe={user.id === me.data?.id}
            pending={update.isPending && update.variables?.id === user.id}
            onChange={(change) => update.mutate(change)}
            onDelete={() => setDeleting(user)}
          />
        ))}
      </AdminTable>
      {deleting && (
        <ConfirmDialog
          title={t("admin.users.deleteDialog.title", { name: deleting.name })}
          description={t("admin.users.deleteDialog.description", {
            name: deleting.name,
            email: deleting.email,
          })}
          confirmLabel={t("admin.users.delete", { name: deleting.name })}
          busyLabel={t("admin.users.deleteDialog.deleting")}
          cancelLabel={t("admin.users.deleteDialog.keep")}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await remove(deleting.id);
            toasts.show({ tone: "success", message: t("admin.users.deleted", { name: deleting.name }) });
          }}
        />
      )}
    </>
  );
}
