import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useInstance, useMe } from "../lib/operators-queries";
import { Icon } from "../ui/icons";
import { QueryError, Skeleton } from "../ui/States";
import { GroupsPanel } from "./GroupsPanel";
import { InvitesPanel } from "./InvitesPanel";
import { SignupModeNote } from "./SignupModeNote";
import { UsersTable } from "./UsersTable";

function InviteModeHint() {
  const { t } = useTranslation();
  const mode = useInstance().data?.signupMode;
  if (mode === "closed") return <p className="muted">{t("admin.invites.hint.closed")}</p>;
  if (mode === "open") return <p className="muted">{t("admin.invites.hint.open")}</p>;
  return <p className="muted">{t("admin.invites.hint.invite")}</p>;
}

/** /admin: the people on this instance, invites, and how sign-up works. Admins only. */
export default function AdminPage() {
  const { t } = useTranslation();
  const me = useMe();
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
      <section className="admin-section" aria-labelledby="admin-users">
        <h2 id="admin-users">{t("admin.users.title")}</h2>
        <UsersTable />
      </section>
      <section className="admin-section" aria-labelledby="admin-groups">
        <h2 id="admin-groups">{t("admin.groups.title")}</h2>
        <GroupsPanel />
      </section>
      <section className="admin-section" aria-labelledby="admin-invites">
        <h2 id="admin-invites">{t("admin.invites.title")}</h2>
        <InviteModeHint />
        <InvitesPanel />
      </section>
      <section className="admin-section" aria-labelledby="admin-signup">
        <h2 id="admin-signup">{t("admin.signup.title")}</h2>
        <SignupModeNote />
      </section>
    </div>
  );
}
