import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Dashboard } from "../../contract/resources";
import { Icon } from "../ui/icons";
import { accessOf } from "./dashboard-access";
import { useDuplicate } from "./PortabilityDialogs";

/** "Shared with you by Anna · view only": on a dashboard someone else owns, whose it is and what you may do. */
export function SharedNote({ dashboard }: { dashboard: Dashboard }) {
  const { t } = useTranslation();
  if (!dashboard.owner) return null;
  const owner = dashboard.owner.name;
  return (
    <span className="status-pill shared-note">
      <Icon name={accessOf(dashboard) === "viewer" ? "eye" : "users"} size={13} />{" "}
      {accessOf(dashboard) === "viewer"
        ? t("viewer.sharedViewOnly", { owner })
        : t("viewer.sharedCanEdit", { owner })}
    </span>
  );
}

/**
 * "Kept in a file on the server": a provisioned dashboard (DESIGN section 17) changes through its
 * file, so nobody may edit it here; the note says why the edit controls are missing.
 */
export function ProvisionedNote({ dashboard }: { dashboard: Dashboard }) {
  const { t } = useTranslation();
  if (!dashboard.provisionKey) return null;
  return (
    <span
      className="status-pill provisioned-note"
      title={
        dashboard.provisionLocked ? t("viewer.provisionedLockedHint") : t("viewer.provisionedEditableHint")
      }
    >
      <Icon name={dashboard.provisionLocked ? "shield" : "upload"} size={13} />{" "}
      {dashboard.provisionLocked ? t("viewer.provisionedLocked") : t("viewer.provisionedEditable")}
    </span>
  );
}

/** A viewer's way to change what they see: their own copy, opened at once. */
export function DuplicateToEdit({ dashboard }: { dashboard: Dashboard }) {
  const { t } = useTranslation();
  const duplicate = useDuplicate();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="button primary"
      disabled={busy}
      title={t("viewer.duplicateTitle")}
      onClick={async () => {
        setBusy(true);
        try {
          await duplicate(dashboard);
        } finally {
          setBusy(false);
        }
      }}
    >
      <Icon name="copy" size={16} /> {busy ? t("viewer.duplicating") : t("viewer.duplicate")}
    </button>
  );
}
