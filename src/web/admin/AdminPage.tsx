import { useEffect } from "react";
import { Link } from "react-router";
import { useInstance, useMe } from "../lib/operators-queries";
import { Icon } from "../ui/icons";
import { ErrorState, Skeleton } from "../ui/States";
import { InvitesPanel } from "./InvitesPanel";
import { SignupModeNote } from "./SignupModeNote";
import { UsersTable } from "./UsersTable";

function InviteModeHint() {
  const mode = useInstance().data?.signupMode;
  if (mode === "closed")
    return <p className="muted">Sign-up is closed, so invite links don't work until it is set to invite.</p>;
  if (mode === "open")
    return (
      <p className="muted">Sign-up is open: anyone can join without an invite. Invites still set the role.</p>
    );
  return <p className="muted">An invite link works once. Send it to the person you invite.</p>;
}

/** /admin: the people on this instance, invites, and how sign-up works. Admins only. */
export default function AdminPage() {
  const me = useMe();
  useEffect(() => {
    document.title = "Administration · Tessera";
    return () => {
      document.title = "Tessera";
    };
  }, []);

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
        <ErrorState error={me.error} onRetry={() => void me.refetch()} />
      </div>
    );
  if (me.data?.role !== "admin")
    return (
      <div className="admin-page">
        <div className="error-state" role="alert">
          <Icon name="alert" size={22} />
          <strong>Only administrators can see this page</strong>
          <p>Ask an admin of this Tessera if you need something changed.</p>
          <Link to="/" className="button">
            Back to your dashboards
          </Link>
        </div>
      </div>
    );

  return (
    <div className="admin-page">
      <header className="admin-header">
        <h1>Administration</h1>
        <p className="muted">The people on this Tessera, invites, and how sign-up works.</p>
      </header>
      <section className="admin-section" aria-labelledby="admin-users">
        <h2 id="admin-users">Users</h2>
        <UsersTable />
      </section>
      <section className="admin-section" aria-labelledby="admin-invites">
        <h2 id="admin-invites">Invites</h2>
        <InviteModeHint />
        <InvitesPanel />
      </section>
      <section className="admin-section" aria-labelledby="admin-signup">
        <h2 id="admin-signup">Sign-up and sign-in</h2>
        <SignupModeNote />
      </section>
    </div>
  );
}
