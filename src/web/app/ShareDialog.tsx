import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type KeyboardEvent, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Dashboard } from "../../contract/resources";
import { api, describeError } from "../lib/api";
import { replaceInList } from "../lib/list-cache";
import { useIsAdmin, useMe } from "../lib/operators-queries";
import { keys, useSession } from "../lib/queries";
import { type MemberRole, sharingApi } from "../lib/sharing-api";
import { sharingKeys, useDirectory, useMembers } from "../lib/sharing-queries";
import { Dialog } from "../ui/Dialog";
import { FormActions, FormError } from "../ui/fields";
import { Icon, IconButton } from "../ui/icons";
import { QueryError, Skeleton } from "../ui/States";
import { useToasts } from "../ui/Toasts";
import { WIDGETS } from "../widget-kit/registry";
import { canManageDashboard } from "./dashboard-access";
import {
  addMember,
  type Candidate,
  candidates,
  changed,
  type DraftMember,
  draftOf,
  EMAIL,
  inputOf,
  memberErrors,
  removeMember,
  setRole,
} from "./share-members";
import { UserAvatar } from "./UserAvatar";
import { widgetName } from "./widget-name";

export function publicUrl(id: string, origin = window.location.origin): string {
  return `${origin}/p/${id}`;
}

const PRIVATE = WIDGETS.filter((d) => d.provider);

/**
 * A person's picture (from the directory, which the dialog reads anyway) or initials; a group's or
 * everyone's icon.
 */
function Badge({ who }: { who: { type: DraftMember["type"]; id?: string | null; name: string } }) {
  const directory = useDirectory();
  if (who.type === "user") {
    const image = who.id ? directory.data?.users.find((user) => user.id === who.id)?.image : null;
    return <UserAvatar className="share-avatar" name={who.name} image={image} />;
  }
  return (
    <span className="avatar share-avatar" aria-hidden="true">
      <Icon name={who.type === "group" ? "users" : "building"} size={15} />
    </span>
  );
}

function RoleSelect({
  value,
  label,
  disabled,
  onChange,
}: {
  value: MemberRole;
  label: string;
  disabled?: boolean;
  onChange(role: MemberRole): void;
}) {
  const { t } = useTranslation();
  return (
    <select
      className="share-role"
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value as MemberRole)}
    >
      <option value="viewer">{t("share.roles.viewer")}</option>
      <option value="editor">{t("share.roles.editor")}</option>
    </select>
  );
}

/** Moves the focus among the suggestions with the arrow keys (Up from the first goes back to the field). */
function arrowKeys(event: KeyboardEvent<HTMLElement>, field: HTMLInputElement | null) {
  if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
  const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>(".share-suggestion")];
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const next = event.key === "ArrowDown" ? at + 1 : at - 1;
  event.preventDefault();
  if (next < 0) field?.focus();
  else buttons[Math.min(next, buttons.length - 1)]?.focus();
}

/**
 * Whom to add: a search over the directory's people and groups and "everyone on this instance";
 * an address typed in adds that person by email (the only way when the directory lists nobody,
 * as on an instance anyone may join). Added with the role chosen beside the field.
 */
function SharePicker({
  ownerId,
  draft,
  onAdd,
}: {
  ownerId: string;
  draft: readonly DraftMember[];
  onAdd(who: Candidate & { email?: string }, role: MemberRole): void;
}) {
  const { t } = useTranslation();
  const directory = useDirectory();
  const [search, setSearch] = useState("");
  const [open, setOpen] = useState(false);
  const [role, setRoleChoice] = useState<MemberRole>("viewer");
  const field = useRef<HTMLInputElement>(null);
  const id = useId();
  const listId = `${id}-list`;
  const byEmail = directory.isSuccess && directory.data.users.length === 0;
  const everyoneName = t("share.everyone.name");
  const { shown, more } = candidates(directory.data, draft, search, { ownerId, everyoneName });
  const address = search.trim();
  const email = EMAIL.test(address) && !draft.some((m) => m.email?.toLowerCase() === address.toLowerCase());

  const add = (who: Candidate & { email?: string }) => {
    onAdd(who, role);
    setSearch("");
    // Back in the field for the next name; the list opens again as they type.
    field.current?.focus();
    setOpen(false);
  };
  const detail = (c: Candidate) =>
    c.type === "everyone" ? t("share.everyone.hint") : c.type === "group" ? t("share.group") : null;

  return (
    <fieldset
      className="share-picker"
      aria-labelledby={`${id}-label`}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          // The list closes first; the next Escape closes the dialog.
          e.preventDefault();
          e.stopPropagation();
          setOpen(false);
          field.current?.focus();
        }
      }}
    >
      <label htmlFor={id} id={`${id}-label`} className="field-label">
        {byEmail ? t("share.add.labelByEmail") : t("share.add.label")}
      </label>
      {/* The suggestions open over what follows, so nothing below moves while the field has the focus. */}
      <div className="share-combo">
        <div className="share-add-row">
          <div className="search-input share-search">
            <Icon name="search" size={15} />
            <input
              ref={field}
              id={id}
              type="search"
              inputMode={byEmail ? "email" : undefined}
              autoComplete="off"
              placeholder={byEmail ? t("share.add.placeholderByEmail") : t("share.add.placeholder")}
              aria-controls={open ? listId : undefined}
              value={search}
              onFocus={() => setOpen(true)}
              onChange={(e) => {
                setSearch(e.target.value);
                setOpen(true);
              }}
              onKeyDown={(e) => {
                if (e.key === "ArrowDown") {
                  e.preventDefault();
                  setOpen(true);
                  requestAnimationFrame(() =>
                    document.getElementById(listId)?.querySelector<HTMLButtonElement>("button")?.focus(),
                  );
                } else if (e.key === "Enter") {
                  e.preventDefault();
                  const first = email
                    ? { type: "user" as const, id: null, name: address, email: address }
                    : shown[0];
                  if (first && (email || search.trim())) add(first);
                }
              }}
            />
          </div>
          <RoleSelect value={role} label={t("share.add.role")} onChange={setRoleChoice} />
        </div>
        {open && (
          <ul
            id={listId}
            className="menu-list share-suggestions"
            aria-label={t("share.add.suggestions")}
            onKeyDown={(e) => arrowKeys(e, field.current)}
          >
            {email && (
              <li>
                <button
                  type="button"
                  className="menu-item share-suggestion"
                  onClick={() => add({ type: "user", id: null, name: address, email: address })}
                >
                  <Badge who={{ type: "user", name: address }} />
                  <span className="share-who">
                    <span className="share-name">{t("share.add.email", { email: address })}</span>
                    <span className="share-detail">{t("share.add.emailHint")}</span>
                  </span>
                </button>
              </li>
            )}
            {shown.map((c) => (
              <li key={`${c.type}:${c.id ?? ""}`}>
                <button
                  type="button"
                  className="menu-item share-suggestion"
                  aria-label={t("share.add.one", { name: c.name })}
                  onClick={() => add(c)}
                >
                  <Badge who={c} />
                  <span className="share-who">
                    <span className="share-name">{c.name}</span>
                    {detail(c) && <span className="share-detail">{detail(c)}</span>}
                  </span>
                  <Icon name="plus" size={15} className="muted" />
                </button>
              </li>
            ))}
            {more > 0 && <li className="share-more muted">{t("share.add.more", { count: more })}</li>}
            {shown.length === 0 && !email && (
              <li className="share-more muted">
                {directory.isPending
                  ? t("common.loading")
                  : byEmail && !search.trim()
                    ? t("share.add.typeEmail")
                    : t("share.add.noMatch")}
              </li>
            )}
          </ul>
        )}
      </div>
      {byEmail && <p className="field-hint">{t("share.add.byEmailHint")}</p>}
      {directory.isError && <FormError message={t("share.add.directoryFailed")} />}
    </fieldset>
  );
}

/** The people, groups and "everyone" a dashboard is shared with; its owner or an admin changes them. */
function MembersSection({
  dashboard,
  manage,
  onClose,
}: {
  dashboard: Dashboard;
  manage: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const toasts = useToasts();
  const session = useSession().data;
  const me = useMe().data;
  const members = useMembers(dashboard.id);
  const [draft, setDraft] = useState<DraftMember[] | null>(null);
  const [errors, setErrors] = useState<Map<string, string>>(new Map());
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const list = draft ?? (members.data ? draftOf(members.data) : []);
  const ownerName = dashboard.owner?.name ?? session?.user.name ?? "";
  const ownerIsMe = !dashboard.owner;
  const dirty = members.isSuccess && changed(list, members.data);

  const edit = (next: DraftMember[], key?: string) => {
    setDraft(next);
    setFormError(null);
    if (key && errors.has(key)) {
      const rest = new Map(errors);
      rest.delete(key);
      setErrors(rest);
    }
  };

  const save = async () => {
    setSaving(true);
    setFormError(null);
    try {
      const saved = await sharingApi.members.replace(dashboard.id, list.map(inputOf));
      client.setQueryData(sharingKeys.members(dashboard.id), saved);
      setDraft(null);
      setErrors(new Map());
      toasts.show({ tone: "success", message: t("share.saved", { name: dashboard.name }) });
      onClose();
    } catch (error) {
      const byRow = memberErrors(error, list);
      setErrors(byRow);
      setFormError(
        byRow.size > 0 ? t("share.errors.some") : t("share.errors.failed", { reason: describeError(error) }),
      );
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="share-section" aria-labelledby="share-people-title">
      <h3 className="section-title" id="share-people-title">
        <Icon name="users" size={16} /> {t("share.people.title")}
      </h3>
      {manage && (
        <SharePicker
          ownerId={dashboard.owner?.id ?? dashboard.userId}
          draft={list}
          onAdd={(who, role) => edit(addMember(list, who, role))}
        />
      )}
      {members.isPending ? (
        <Skeleton width="100%" height={96} />
      ) : members.isError ? (
        <QueryError query={members} title={t("share.people.loadFailed")} />
      ) : (
        <ul className="share-members" aria-label={t("share.people.list")}>
          <li className="share-member">
            {ownerIsMe ? (
              <UserAvatar className="share-avatar" name={ownerName} image={me?.image} />
            ) : (
              <Badge who={{ type: "user", id: dashboard.owner?.id, name: ownerName }} />
            )}
            <span className="share-who">
              <span className="share-name">
                {ownerIsMe ? t("share.people.you", { name: ownerName }) : ownerName}
              </span>
            </span>
            <span className="share-owner muted">{t("share.roles.owner")}</span>
          </li>
          {list.map((member) => {
            const error = errors.get(member.key);
            const errorId = `share-error-${member.key.replace(/[^\w-]/g, "_")}`;
            const name = member.type === "everyone" ? t("share.everyone.name") : member.name;
            return (
              <li
                key={member.key}
                className={`share-member${error ? " has-error" : ""}`}
                data-member={member.key}
                aria-describedby={error ? errorId : undefined}
              >
                <Badge who={member} />
                <span className="share-who">
                  <span className="share-name" title={name}>
                    {name}
                  </span>
                  {member.type === "everyone" && (
                    <span className="share-detail">{t("share.everyone.hint")}</span>
                  )}
                  {member.type === "group" && <span className="share-detail">{t("share.group")}</span>}
                  {error && (
                    <span className="field-error" id={errorId} role="alert">
                      {error}
                    </span>
                  )}
                </span>
                {manage ? (
                  <>
                    <RoleSelect
                      value={member.role}
                      label={t("share.people.roleOf", { name })}
                      disabled={saving}
                      onChange={(role) => edit(setRole(list, member.key, role), member.key)}
                    />
                    <IconButton
                      icon="x"
                      size={15}
                      className="small"
                      label={t("share.people.remove", { name })}
                      title={t("common.remove")}
                      disabled={saving}
                      onClick={() => edit(removeMember(list, member.key), member.key)}
                    />
                  </>
                ) : (
                  <span className="share-owner muted">
                    {member.role === "editor" ? t("share.roles.editor") : t("share.roles.viewer")}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {members.isSuccess && list.length === 0 && <p className="muted share-note">{t("share.people.none")}</p>}
      <p className="muted share-note">
        {t("share.people.accountNote", { names: PRIVATE.map(widgetName).join(", ") })}
      </p>
      {manage && (
        <FormActions
          label={t("share.people.save")}
          busyLabel={t("common.saving")}
          busy={saving}
          disabled={!dirty}
          error={formError}
          onCancel={dirty ? () => setDraft(null) : undefined}
          cancelLabel={t("share.people.discard")}
          onClick={() => void save()}
        />
      )}
    </section>
  );
}

/** Publishing makes a read-only copy of the layout visible to anyone with the link. */
function PublicLinkSection({ dashboard }: { dashboard: Dashboard }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const toggle = useMutation({
    mutationFn: (isPublic: boolean) => api.dashboards.setPublic(dashboard.id, dashboard.name, isPublic),
    onSuccess: (saved) => {
      setError(null);
      replaceInList(client, keys.dashboards, saved);
    },
    onError: (e) => setError(describeError(e)),
  });
  const current = client.getQueryData<Dashboard[]>(keys.dashboards)?.find((d) => d.id === dashboard.id);
  const isPublic = toggle.isPending ? Boolean(toggle.variables) : (current?.isPublic ?? dashboard.isPublic);
  const link = publicUrl(dashboard.id);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // No clipboard permission (http, an old browser): select it for Ctrl+C instead.
      input.current?.select();
    }
  };

  return (
    <section className="share-section share-public" aria-labelledby="share-public-title">
      <h3 className="section-title" id="share-public-title">
        <Icon name="globe" size={16} /> {t("share.public.title")}
      </h3>
      <FormError message={error} />
      <label className="checkbox-row share-toggle">
        <input
          type="checkbox"
          role="switch"
          aria-checked={isPublic}
          checked={isPublic}
          disabled={toggle.isPending}
          onChange={(e) => toggle.mutate(e.target.checked)}
        />
        <span>
          <strong>{t("share.publicLink")}</strong>
          <span className="muted"> {isPublic ? t("share.on") : t("share.off")}</span>
        </span>
      </label>
      {isPublic && (
        <div className="share-link">
          <input
            ref={input}
            aria-label={t("share.publicLink")}
            value={link}
            readOnly
            onFocus={(e) => e.target.select()}
          />
          <button type="button" className="button small" onClick={() => void copy()}>
            <Icon name={copied ? "check" : "copy"} size={14} />{" "}
            {copied ? t("share.copied") : t("common.copy")}
          </button>
          <a
            className="icon-button small"
            href={link}
            target="_blank"
            rel="noopener"
            aria-label={t("share.openPublic")}
          >
            <Icon name="external" size={14} />
          </a>
        </div>
      )}
      <p className="muted share-note">
        {t("share.privateNote", { names: PRIVATE.map(widgetName).join(", ") })}
      </p>
    </section>
  );
}

/**
 * Sharing a dashboard: with people, groups or everyone on this instance, each as viewer or editor,
 * and by a public link anyone can open. Its owner or an admin changes them; anyone else who may
 * open the dialog sees whom it is shared with.
 */
export function ShareDialog({ dashboard, onClose }: { dashboard: Dashboard; onClose(): void }) {
  const { t } = useTranslation();
  const manage = canManageDashboard(dashboard, useIsAdmin());
  return (
    <Dialog
      open
      onClose={onClose}
      size="md"
      className="share-dialog"
      title={t("share.title", { name: dashboard.name })}
      description={manage ? t("share.description") : t("share.descriptionReadOnly")}
    >
      <MembersSection dashboard={dashboard} manage={manage} onClose={onClose} />
      {manage && <PublicLinkSection dashboard={dashboard} />}
    </Dialog>
  );
}

export default ShareDialog;
