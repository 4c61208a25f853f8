import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { formErrors } from "../lib/api";
import { replaceInList, useRemoveFromList } from "../lib/list-cache";
import { type AdminUser, operatorsApi } from "../lib/operators-api";
import { operatorKeys } from "../lib/operators-queries";
import { type Group, sharingApi } from "../lib/sharing-api";
import { sharingKeys, useGroups } from "../lib/sharing-queries";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { Dialog } from "../ui/Dialog";
import { FormActions, TextField } from "../ui/fields";
import { Icon, IconButton } from "../ui/icons";
import { QueryList } from "../ui/States";
import { useToasts } from "../ui/Toasts";
import { AdminTable } from "./AdminTable";
import { matchingUsers, memberNames } from "./groups";

/** Enough to pick from at a glance; a longer list gets a search field. */
const SEARCH_FROM = 8;

/** A new group, or one renamed and its members picked again from everyone with an account. */
function GroupDialog({
  group,
  users,
  onClose,
}: {
  group: Group | null;
  users: readonly AdminUser[];
  onClose(): void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const toasts = useToasts();
  const [name, setName] = useState(group?.name ?? "");
  const [members, setMembers] = useState<Set<string>>(() => new Set(group?.members ?? []));
  const [search, setSearch] = useState("");
  const [errors, setErrors] = useState<{ name?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const shown = matchingUsers(users, search);

  const toggle = (id: string, on: boolean) => {
    const next = new Set(members);
    if (on) next.add(id);
    else next.delete(id);
    setMembers(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setErrors({ name: t("admin.groups.form.nameRequired") });
      return;
    }
    setErrors({});
    setBusy(true);
    // Only those who still have an account: a group may remember someone deleted since.
    const chosen = users.filter((u) => members.has(u.id)).map((u) => u.id);
    try {
      if (group) {
        const saved = await sharingApi.groups.update({ id: group.id, name: name.trim(), members: chosen });
        replaceInList(client, sharingKeys.groups, saved);
        toasts.show({ tone: "success", message: t("admin.groups.saved", { name: saved.name }) });
      } else {
        const created = await sharingApi.groups.create({ name: name.trim(), members: chosen });
        client.setQueryData<Group[]>(sharingKeys.groups, (list) => [...(list ?? []), created]);
        toasts.show({ tone: "success", message: t("admin.groups.created", { name: created.name }) });
      }
      onClose();
    } catch (error) {
      setErrors(formErrors(error, ["name"], (reason) => t("admin.groups.form.failed", { reason })));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={onClose}
      size="sm"
      title={group ? t("admin.groups.form.editTitle", { name: group.name }) : t("admin.groups.form.newTitle")}
      description={t("admin.groups.form.description")}
    >
      <form onSubmit={submit} noValidate className="group-form">
        <TextField
          label={t("common.name")}
          value={name}
          maxLength={100}
          error={errors.name}
          placeholder={t("admin.groups.form.namePlaceholder")}
          data-autofocus
          onChange={(value) => {
            setName(value);
            setErrors({});
          }}
        />
        <fieldset className="field group-members">
          <legend className="field-label">{t("admin.groups.form.members", { count: members.size })}</legend>
          {users.length > SEARCH_FROM && (
            <div className="search-input compact">
              <Icon name="search" size={14} />
              <input
                type="search"
                aria-label={t("admin.groups.form.search")}
                placeholder={t("admin.groups.form.search")}
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                onKeyDown={(e) => {
                  // Enter searches here; it does not save the group.
                  if (e.key === "Enter") e.preventDefault();
                }}
              />
            </div>
          )}
          {users.length === 0 ? (
            <p className="muted">{t("admin.groups.form.noUsers")}</p>
          ) : (
            <ul className="check-list">
              {shown.map((user) => (
                <li key={user.id}>
                  <label className="checkbox-row group-user">
                    <input
                      type="checkbox"
                      checked={members.has(user.id)}
                      onChange={(e) => toggle(user.id, e.target.checked)}
                    />
                    <span className="group-user-name">{user.name}</span>
                    <span className="muted group-user-email">{user.email}</span>
                  </label>
                </li>
              ))}
              {shown.length === 0 && <li className="muted empty-line">{t("admin.groups.form.noMatch")}</li>}
            </ul>
          )}
        </fieldset>
        <FormActions
          label={group ? t("common.save") : t("admin.groups.form.create")}
          busyLabel={t("common.saving")}
          busy={busy}
          onCancel={onClose}
          error={errors.form}
        />
      </form>
    </Dialog>
  );
}

/**
 * Groups of people to share dashboards with at once: each with its members, created, renamed,
 * its members picked again, deleted after a confirmation. Admins only.
 */
export function GroupsPanel() {
  const { t } = useTranslation();
  const toasts = useToasts();
  const groups = useGroups();
  // The users table above asks for the same list: one request for both.
  const users = useQuery({ queryKey: operatorKeys.users, queryFn: operatorsApi.users.list });
  const [editing, setEditing] = useState<Group | "new" | null>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);
  const remove = useRemoveFromList(sharingKeys.groups, sharingApi.groups.remove);
  const everyone = users.data ?? [];

  return (
    <>
      <div className="groups-intro">
        <p className="muted">{t("admin.groups.hint")}</p>
        <button type="button" className="button" onClick={() => setEditing("new")}>
          <Icon name="plus" size={15} /> {t("admin.groups.new")}
        </button>
      </div>
      <QueryList
        query={groups}
        placeholderHeight={48}
        failed={t("admin.groups.loadFailed")}
        empty={t("admin.groups.empty")}
      >
        {(list) => (
          <AdminTable
            caption={t("admin.groups.title")}
            columns={[t("common.name"), t("admin.groups.members")]}
          >
            {list.map((group) => {
              const { names, more } = memberNames(group.members, everyone);
              return (
                <tr key={group.id}>
                  <th scope="row">{group.name}</th>
                  <td className="group-member-names">
                    {names.length === 0 ? (
                      <span className="muted">{t("admin.groups.noMembers")}</span>
                    ) : more > 0 ? (
                      t("admin.groups.namesAndMore", { names: names.join(", "), count: more })
                    ) : (
                      names.join(", ")
                    )}
                  </td>
                  <td className="cell-actions">
                    <span className="row-buttons">
                      <button
                        type="button"
                        className="button ghost small"
                        aria-label={t("admin.groups.edit", { name: group.name })}
                        disabled={users.isPending}
                        onClick={() => setEditing(group)}
                      >
                        <Icon name="pencil" size={14} />
                        <span className="row-button-label">{t("common.edit")}</span>
                      </button>
                      <IconButton
                        icon="trash"
                        size={15}
                        className="small danger"
                        label={t("admin.groups.delete", { name: group.name })}
                        title={t("admin.groups.delete", { name: group.name })}
                        onClick={() => setDeleting(group)}
                      />
                    </span>
                  </td>
                </tr>
              );
            })}
          </AdminTable>
        )}
      </QueryList>
      {editing && (
        <GroupDialog
          group={editing === "new" ? null : editing}
          users={everyone}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t("admin.groups.deleteDialog.title", { name: deleting.name })}
          description={t("admin.groups.deleteDialog.description", { name: deleting.name })}
          confirmLabel={t("admin.groups.delete", { name: deleting.name })}
          busyLabel={t("admin.groups.deleteDialog.deleting")}
          cancelLabel={t("admin.groups.deleteDialog.keep")}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await remove(deleting.id);
            toasts.show({ tone: "success", message: t("admin.groups.deleted", { name: deleting.name }) });
          }}
        />
      )}
    </>
  );
}
