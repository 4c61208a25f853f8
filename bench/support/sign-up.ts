/** Signs a fresh user up over HTTP; returns their id, bearer token and `session=…` cookie pair. */
export async function signUpOverHttp(base: string, label = "bench") {
  const unique = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const res = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ name: label, email: `${unique}@example.test`, password: `pw-${unique}-Secret1` }),
  });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { token: string; user: { id: string } };
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("session="));
  if (!cookie) throw new Error("sign-up set no session cookie");
  return { id: body.user.id, token: body.token, cookie: cookie.split(";")[0]! };
}
