import { hashPassword as hashScrypt } from "better-auth/crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { TestClient } from "../support/client.js";
import { MODES, type ModeEnv, type ModeName, prepareMode } from "../support/modes.js";
import { registerSecret } from "../support/secrets.js";

/**
 * Password hashes (issue 36): Argon2id at the cost the README states; accounts whose hash better-auth's
 * scrypt made before keep signing in, and move to Argon2id at their next good sign-in.
 */

const rows = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

describe.each<ModeName>(MODES)("password hashes (%s)", { timeout: 60_000 }, (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start();
  });
  afterAll(() => mode.teardown());

  async function stored(userId: string) {
    const result = await built.ctx.database.db.execute(
      sql`SELECT password FROM account WHERE user_id = ${userId} AND provider_id = 'credential'`,
    );
    const hash = String(rows(result)[0]!.password);
    registerSecret(hash);
    return hash;
  }
  const signIn = (email: string, password: string) =>
    new TestClient(built.app).post("/api/auth/sign-in/email", { email, password }).then((res) => res.status);

  it("stores Argon2id at 19 MiB, 2 passes, one lane, salted per account", async () => {
    const a = await new TestClient(built.app).signUp("Ada");
    const b = await new TestClient(built.app).signUp("Bea");
    const [ha, hb] = [await stored(a.id), await stored(b.id)];
    expect(ha).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(hb).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(ha.split("$")[4]).not.toBe(hb.split("$")[4]);
    expect(await signIn(a.email, a.password)).toBe(200);
    expect(await signIn(a.email, b.password)).toBe(401);
  });

  it("signs in an older scrypt hash and replaces it; a wrong password changes nothing", async () => {
    const { email, id } = await new TestClient(built.app).signUp("Legacy");
    // As better-auth's own scrypt stored passwords before.
    const password = "an older password, caf\u00e9";
    const legacy = await hashScrypt(password.normalize("NFKC"));
    registerSecret(legacy);
    await built.ctx.database.db.execute(
      sql`UPDATE account SET password = ${legacy} WHERE user_id = ${id} AND provider_id = 'credential'`,
    );

    expect(await signIn(email, `${password}!`)).toBe(401);
    expect(await stored(id)).toBe(legacy);

    // The é typed decomposed: NFKC makes both one password, as it did for scrypt.
    expect(await signIn(email, password.normalize("NFD"))).toBe(200);
    const upgraded = await stored(id);
    expect(upgraded).toMatch(/^\$argon2id\$/);
    expect(await signIn(email, password)).toBe(200);
    expect(await stored(id)).toBe(upgraded);
  });

  it("refuses a stored value that is no hash at all, as a wrong password", async () => {
    const { email, password, id } = await new TestClient(built.app).signUp("Broken");
    await built.ctx.database.db.execute(
      sql`UPDATE account SET password = '$argon2id$not-a-hash' WHERE user_id = ${id} AND provider_id = 'credential'`,
    );
    expect(await signIn(email, password)).toBe(401);
  });
});
