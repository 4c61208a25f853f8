import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { IntegrationOwner } from "../../contract/integrations";
import { useIsAdmin } from "../lib/operators-queries";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { Icon } from "../ui/icons";
import { QueryError, QueryList, Skeleton } from "../ui/States";
import { useToasts } from "../ui/Toasts";
import { IntegrationForm } from "./IntegrationForm";
import { IntegrationRow } from "./IntegrationRow";
import {
  type Integration,
  useIntegrationKinds,
  useIntegrations,
  useRemoveIntegration,
} from "./integrations-api";
import "./integrations.css";

/**
 * The integrations list with its Add form, for Settings (`me`: the user's own and, marked
 * Everyone, the instance's) and the admin page (`instance`: those only). A form opens in place:
 * the focus goes into it, and back to the button that opened it when it closes.
 */
export function IntegrationsPanel({ owner }: { owner: IntegrationOwner }) {
  const { t } = useTranslation();
  const toasts = useToasts();
  const isAdmin = useIsAdmin();
  const list = useIntegrations();
  const kinds = useIntegrationKinds();
  const remove = useRemoveIntegration();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Integration | null>(null);
  const listTitle = useId();
  const addButton = useId();
  const panel = useRef<HTMLDivElement>(null);

  /** Where the focus goes once the next render is on screen: an element id, or a form opened. */
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    const target = focusNext.current;
    if (!target) return;
    const element =
      target === "form"
        ? panel.current?.querySelector<HTMLElement>(
            ".integration-form select, .integration-form input:not([type=checkbox])",
          )
        : document.getElementById(target);
    element?.focus();
    // Behind a modal (the delete confirmation) nothing takes the focus: tried again once it closes.
    if (element && document.activeElement === element) focusNext.current = null;
  });

  const kindLabel = (kind: string) => kinds.data?.find((k) => k.kind === kind)?.label ?? kind;
  const shown = (items: readonly Integration[]) =>
    owner === "instance" ? items.filter((item) => item.owner === "instance") : items;

  const closeForm = (back: string) => {
    focusNext.current = back;
    setAdding(false);
    setEditing(null);
  };

  const form = (saved?: Integration) =>
    kinds.isError ? (
      <QueryError query={kinds} title={t("integrations.kindsFailed")} />
    ) : !kinds.data ? (
      <Skeleton width="100%" height={220} />
    ) : (
      <IntegrationForm
        owner={owner}
        saved={saved}
        kinds={kinds.data}
        isAdmin={isAdmin}
        onCancel={() => closeForm(saved ? `integration-edit-${saved.id}` : addButton)}
        onSaved={(result, created) => {
          closeForm(saved ? `integration-edit-${saved.id}` : addButton);
          toasts.show({
            tone: "success",
            message: created
              ? t("integrations.added", { name: result.name })
              : t("integrations.saved", { name: result.name }),
          });
        }}
      />
    );

  return (
    <div className="integrations-panel" ref={panel}>
      <h3 className="section-title" id={listTitle} tabIndex={-1}>
        {owner === "instance" ? t("integrations.list.instanceTitle") : t("integrations.list.title")}
      </h3>
      <QueryList
        query={{ ...list, data: list.data ? shown(list.data) : undefined }}
        placeholderHeight={72}
        failed={t("integrations.list.loadFailed")}
        empty={owner === "instance" ? t("integrations.list.instanceEmpty") : t("integrations.list.empty")}
      >
        {(items) => (
          <ul className="provider-list integration-list" aria-labelledby={listTitle}>
            {items.map((item) =>
              editing === item.id ? (
                <li key={item.id} className="integration-editing">
                  {form(item)}
                </li>
              ) : (
                <IntegrationRow
                  key={item.id}
                  item={item}
                  kindLabel={kindLabel(item.kind)}
                  showOwner={owner === "me"}
                  onEdit={() => {
                    focusNext.current = "form";
                    setAdding(false);
                    setEditing(item.id);
                  }}
                  onDelete={() => setDeleting(item)}
                />
              ),
            )}
          </ul>
        )}
      </QueryList>
      {adding ? (
        <div className="integration-adding">{form()}</div>
      ) : (
        <div className="dialog-actions start">
          <button
            type="button"
            id={addButton}
            className="button"
            onClick={() => {
              focusNext.current = "form";
              setEditing(null);
              setAdding(true);
            }}
          >
            <Icon name="plus" size={16} />{" "}
            {owner === "instance" ? t("integrations.addInstance") : t("integrations.add")}
          </button>
        </div>
      )}
      {deleting && (
        <ConfirmDialog
          title={t("integrations.deleteDialog.title", { name: deleting.name })}
          description={
            deleting.owner === "instance"
              ? t("integrations.deleteDialog.instance")
              : t("integrations.deleteDialog.own")
          }
          confirmLabel={t("integrations.deleteDialog.confirm")}
          busyLabel={t("integrations.deleteDialog.deleting")}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await remove(deleting.id);
            if (editing === deleting.id) setEditing(null);
            // Its row is gone with its Delete button: the list's heading takes the focus.
            focusNext.current = listTitle;
            toasts.show({ tone: "success", message: t("integrations.deleted", { name: deleting.name }) });
          }}
        />
      )}
    </div>
  );
}
