import type { InstanceInfo, SignupMode } from "../lib/operators-api";
import { useInstance } from "../lib/operators-queries";
import { Skeleton } from "../ui/States";

const MODES: Record<SignupMode, { name: string; sentence: string }> = {
  invite: {
    name: "Invite only",
    sentence: "New people need an invite link from an admin.",
  },
  open: {
    name: "Open",
    sentence: "Anyone who can reach this server can create an account.",
  },
  closed: {
    name: "Closed",
    sentence:
      "Nobody can sign up, not even with an invite link. Single sign-on still creates accounts when OIDC_AUTO_SIGNUP is on.",
  },
};

function SsoLine({ sso }: { sso: InstanceInfo["sso"] }) {
  if (!sso)
    return (
      <p>
        <strong>Single sign-on:</strong> not set up (set <code>OIDC_ISSUER</code>, <code>OIDC_CLIENT_ID</code>{" "}
        and <code>OIDC_CLIENT_SECRET</code>).
      </p>
    );
  return (
    <p>
      <strong>Single sign-on:</strong> {sso.displayName},{" "}
      {sso.available ? "working" : "unavailable right now (the identity provider can't be reached)"}.
    </p>
  );
}

/** How people get in: the sign-up mode, and how to change it (the server's environment). */
export function SignupModeNote() {
  const instance = useInstance();
  if (instance.isPending) return <Skeleton height={60} width="100%" />;
  const info = instance.data;
  if (!info) return <p className="muted">This server does not say how sign-up works.</p>;
  const mode = MODES[info.signupMode];
  return (
    <div className="signup-mode" data-signup-mode={info.signupMode}>
      <p>
        <strong>Sign-up:</strong> <span className="status-pill is-on">{mode.name}</span> {mode.sentence}
      </p>
      <p className="muted">
        To change it, set <code>SIGNUP_MODE</code> to <code>invite</code>, <code>open</code> or{" "}
        <code>closed</code> in the server's environment and restart Tessera.
      </p>
      <SsoLine sso={info.sso} />
      {!info.passwordLogin && (
        <p>
          <strong>Passwords:</strong> turned off (<code>PASSWORD_LOGIN=false</code>); everyone signs in with
          single sign-on.
        </p>
      )}
    </div>
  );
}
