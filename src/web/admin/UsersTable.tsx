import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { describeError } from "../lib/api";
import { type AdminUser, ignoreGone, operatorsApi, type Role } from "../lib/operators-api";
import { operatorKeys, useMe } from "../lib/operators-queries";
import { exactTime, formatDate, relativeTime } from "../lib/relative-time";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { Icon } from "../ui/icons";
import { ErrorState, Skeleton } from "../ui/States";
import { useToasts } from "../ui/Toasts";

type Change = { id: string; role?: Role; disabled?: boolean };

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
  return (
    <tr className={user.disabled ? "is-disabled" : undefined} data-user-email={user.email}>
      <th scope="row">
        <span className="user-name">{user.name}</span>
        {isMe && <span className="status-pill">You</span>}
        {user.disabled && <span className="status-pill is-warn">Disabled</span>}
      </th>
      <td className="user-email">{user.email}</td>
      <td>
        <select
          aria-label={`Role of ${user.name}`}
          value={user.role}
          disabled={pending}
          onChange={(e) => onChange({ id: user.id, role: e.target.value as Role })}
        >
          <option value="member">Member</option>
          <option value="admin">Admin</option>
        </select>
      </td>
      <td>
        <input
          type="checkbox"
          role="switch"
          aria-checked={user.disabled}
          aria-label={`${user.name} disabled`}
          title={isMe ? "You can't disable your own account" : undefined}
          checked={user.disabled}
          disabled={pending || isMe}
          onChange={(e) => onChange({ id: user.id, disabled: e.target.checked })}
        />
      </td>
      <td>
        {user.lastActiveAt ? (
          <time dateTime={user.lastActiveAt} title={exactTime(user.lastActiveAt)}>
            {relativeTime(user.lastActiveAt)}
          </time>
        ) : (
          <span className="muted">Never</span>
        )}
      </td>
      <td className="muted">
        <time dateTime={user.createdAt} title={exactTime(user.createdAt)}>
          {formatDate(user.createdAt)}
        </time>
      </td>
      <td className="cell-actions">
        <button
          type="button"
          className="icon-button small danger"
          aria-label={`Delete ${user.name}`}
          title={isMe ? "You can't delete your own account here" : `Delete ${user.name}`}
          disabled={isMe}
          onClick={onDelete}
        >
          <Icon name="trash" size={15} />
        </button>
      </td>
    </tr>
  );
}

/** Everyone with an account: role, disabled, last active, delete (with confirmation). */
export function UsersTable() {
  const client = useQueryClient();
  const toasts = useToasts();
  const me = useMe();
  const users = useQuery({ queryKey: operatorKeys.users, queryFn: operatorsApi.users.list });
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const replace = (saved: AdminUser) =>
    client.setQueryData<AdminUser[]>(operatorKeys.users, (list) =>
      list?.map((u) => (u.id === saved.id ? saved : u)),
    );
  const update = useMutation({
    mutationFn: (change: Change) => operatorsApi.users.update(change),
    onMutate: () => setError(null),
    onSuccess: (saved, change) => {
      replace(saved);
      toasts.show({
        tone: "success",
        message:
          change.role !== undefined
            ? `${saved.name} is now ${saved.role === "admin" ? "an admin" : "a member"}`
            : saved.disabled
              ? `${saved.name} is disabled and signed out everywhere`
              : `${saved.name} can sign in again`,
      });
      // Your own role changed: the Administration entry follows.
      if (saved.id === me.data?.id) void client.invalidateQueries({ queryKey: operatorKeys.me });
    },
    onError: (e) => setError(describeError(e)),
  });

  if (users.isPending) return <Skeleton height={120} width="100%" />;
  if (users.isError)
    return <ErrorState error={users.error} title="Users didn't load" onRetry={() => void users.refetch()} />;

  return (
    <>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="table-wrap">
        <table className="admin-table">
          <caption className="visually-hidden">Users</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Disabled</th>
              <th scope="col">Last active</th>
              <th scope="col">Joined</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      </div>
      {deleting && (
        <ConfirmDialog
          title={`Delete ${deleting.name}?`}
          description={`This deletes ${deleting.name} (${deleting.email}) and everything they own: dashboards, widgets, notes, connected accounts and API keys. They are signed out everywhere at once. This cannot be undone.`}
          confirmLabel={`Delete ${deleting.name}`}
          busyLabel="Deleting…"
          cancelLabel="Keep them"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await operatorsApi.users.remove(deleting.id).catch(ignoreGone);
            client.setQueryData<AdminUser[]>(operatorKeys.users, (list) =>
              list?.filter((u) => u.id !== deleting.id),
            );
            toasts.show({ tone: "success", message: `${deleting.name} is deleted` });
          }}
        />
      )}
    </>
  );
}
