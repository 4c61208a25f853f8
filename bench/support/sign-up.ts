export interface Credentials {
  name: string;
  email: string;
  password: string;
}

/** A name, an email no other user has, and a password that passes the server's rules. */
export function newCredentials(label = "bench"): Credentials {
  const unique = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  return { name: label, email: `${unique}@example.test`, password: `pw-${unique}-Secret1` };
}

const sessionCookie = (res: Response) => {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("session="));
  if (!cookie) throw new Error(`${new URL(res.url).pathname} set no session cookie`);
  return cookie.split(";")[0]!;
};

/** Signs a fresh user up over HTTP; returns their id, bearer token and `session=…` cookie pair. */
export async function signUpOverHttp(base: string, label = "bench", credentials = newCredentials(label)) {
  const res = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify(credentials),
  });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { token: string; user: { id: string } };
  return { id: body.user.id, token: body.token, cookie: sessionCookie(res) };
}

/** Signs an existing user in over HTTP; returns the new session's `session=…` cookie pair. */
export async function signInOverHttp(base: string, { email, password }: Credentials) {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  return { cookie: sessionCookie(res) };
}
