/**
 * The suite-wide leak check: every response a test client receives is scanned for any secret
 * registered here (passwords, OAuth tokens, exchange secrets) and for anything shaped like a
 * password hash. A hit fails the test that received it.
 */
const secrets = new Set<string>();

// better-auth stores scrypt hashes as `<hex salt>:<hex key>`.
const PASSWORD_HASH = /[0-9a-f]{32}:[0-9a-f]{128}/;

export function registerSecret(value: string) {
  if (value.length >= 8) secrets.add(value);
}

export function findLeak(text: string): string | null {
  if (PASSWORD_HASH.test(text)) return "a password hash";
  for (const secret of secrets) if (text.includes(secret)) return `the secret "${secret.slice(0, 4)}…"`;
  return null;
}

export function assertNoLeak(where: string, text: string) {
  const leak = findLeak(text);
  if (leak) throw new Error(`${where} contains ${leak}`);
}
