/**
 * Reminders are created by whichever open tab notices the moment first. A Web Lock makes the
 * check-and-mark atomic across tabs of this browser, and the mark in localStorage keeps it from
 * ever being sent twice (until it expires after a month).
 */

const PREFIX = "tessera:reminder:";
const KEEP_MS = 31 * 24 * 3600 * 1000;

function read(key: string): string | null {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, value);
  } catch {
    // Storage unavailable: at worst a reminder may repeat in another tab.
  }
}

/** Runs `send` once for this key across all tabs; if it fails, the key is released for a retry. */
export async function remindOnce(key: string, send: () => Promise<unknown>): Promise<boolean> {
  const attempt = async () => {
    if (read(key)) return false;
    write(key, String(Date.now()));
    try {
      await send();
      return true;
    } catch (error) {
      write(key, null);
      throw error;
    }
  };
  const locks =
    typeof navigator === "undefined" ? undefined : (navigator as Navigator & { locks?: LockManager }).locks;
  if (locks?.request) return locks.request(PREFIX + key, attempt);
  return attempt();
}

export function pruneReminderMarks(now = Date.now()) {
  try {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const name = localStorage.key(i);
      if (!name?.startsWith(PREFIX)) continue;
      const at = Number(localStorage.getItem(name));
      if (!Number.isFinite(at) || now - at > KEEP_MS) localStorage.removeItem(name);
    }
  } catch {
    // Nothing to prune without storage.
  }
}

/** Local calendar day as YYYY-MM-DD (reminder keys are per day). */
export function localDay(date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** ms from now until today's local HH:MM (negative when it has passed). */
export function msUntilLocalTime(hhmm: string, now = new Date()): number {
  const [h, m] = hhmm.split(":").map(Number);
  const at = new Date(now);
  at.setHours(h ?? 18, m ?? 0, 0, 0);
  return at.getTime() - now.getTime();
}
