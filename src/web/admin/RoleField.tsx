import { useTranslation } from "react-i18next";
import type { Role } from "../lib/operators-api";
import { Field } from "../ui/fields";

/** The role a new account gets, chosen where an admin invites or creates one. */
export function RoleField({ value, onChange }: { value: Role; onChange(role: Role): void }) {
  const { t } = useTranslation();
  return (
    <Field label={t("admin.roles.label")}>
      {(id) => (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value as Role)}>
          <option value="member">{t("admin.roles.member")}</option>
          <option value="admin">{t("admin.roles.admin")}</option>
        </select>
      )}
    </Field>
  );
}
