import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { InstanceIntegrationsSection } from "../integrations/InstanceIntegrationsSection";
import { useInstance, useMe } from "../lib/operators-queries";
import { Icon } from "../ui/icons";
import { QueryError, Skeleton } from "../ui/States";
import { AuditLogPanel } from "./AuditLogPanel";
import { CreateAccountForm } from "./CreateAccountForm";
import { GroupsPanel } from "./GroupsPanel";
import { InstanceSettingsPanel } from "./InstanceSettingsPanel";
import { InvitesPanel } from "./InvitesPanel";
import { UsersTable } from "./UsersTable";

/** How invites fit the sign-up mode: while sign-up is closed they let nobody in, so none are offered. */
function InviteModeHint() {
  const { t } = useTranslation();
  const mode = useInstance().data?.signupMode;
  if (mode === "closed")
    return (
      <p className="admin-note" role="note">
        {t("admin.invites.hint.closed")}
      </p>
    );
  if (mode === "open") return <p className="muted">{t("admin.invites.hint.open")}</p>;
  return <p className="muted">{t("admin.invites.hint.invite")}</p>;
}

function CreateAccountHint() {
  const { t } = useTranslation();
  const mode = useInstance().data?.signupMode;
  return (
    <p className="muted">
      {mode === "closed" ? t("admin.create.hint.closed") : t("admin.create.hint.other")}
    </p>
  );
}

/** /admin: how people get in and the instance's settings, the people, invites, groups. Admins only. */
export default function AdminPage() {
  const { t } = useTranslation();
  const me = useMe();
  const closed = useInstance().data?.signupMode === "closed";
  const pageTitle = t("admin.documentTitle");
  useEffect(() => {
    document.title = pageTitle;
    return () => {
      document.title = "Tessera";
    };
  }, [pageTitle]);

  if (me.isPending)
    return (
      <div className="admin-page">
        <Skeleton width={220} height={30} />
        <Skeleton width="100%" height={160} />
      </div>
    );
  if (me.isError)
    return (
      <div className="admin-page">
        <QueryError query={me} />
      </div>
    );
  if (me.data?.role !== "admin")
    return (
      <div className="admin-page">
        <div className="error-state" role="alert">
          <Icon name="alert" size={22} />
          <strong>{t("admin.forbidden.title")}</strong>
          <p>{t("admin.forbidden.text")}</p>
          <Link to="/" className="button">
            {t("admin.forbidden.back")}
          </Link>
        </div>
      </div>
    );

  return (
    <div className="admin-page">
      <header className="admin-header">
        <h1>{t("admin.title")}</h1>
        <p className="muted">{t("admin.intro")}</p>
      </header>
      <section className="admin-section" aria-labelledby="admin-signup">
        <h2 id="admin-signup">{t("admin.signup.title")}</h2>
        <InstanceSettingsPanel />
      </section>
      <section className="admin-section" aria-labelledby="admin-users">
        <h2 id="admin-users">{t("admin.users.title")}</h2>
        <UsersTable />
      </section>
      <section className="admin-section" aria-labelledby="admin-create">
        <h2 id="admin-create">{t("admin.create.title")}</h2>
        <CreateAccountHint />
        <CreateAccountForm />
      </section>
      <section className="admin-section" aria-labelledby="admin-invites">
        <h2 id="admin-invites">{t("admin.invites.title")}</h2>
        <InviteModeHint />
        <InvitesPanel canInvite={!closed} />
      </section>
      <section className="admin-section" aria-labelledby="admin-groups">
        <h2 id="admin-groups">{t("admin.groups.title")}</h2>
        <GroupsPanel />
      </section>
      <InstanceIntegrationsSection />
      <section className="admin-section" aria-labelledby="admin-audit">
        <h2 id="admin-audit">{t("admin.audit.title")}</h2>
        <p className="muted">{t("admin.audit.intro")}</p>
        <AuditLogPanel />
      </section>
    </div>
  );
}
