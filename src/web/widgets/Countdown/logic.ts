export interface Remaining {
  ended: boolean;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

export function remaining(targetMs: number, nowMs: number): Remaining {
  const left = Math.max(0, Math.floor((targetMs - nowMs) / 1000));
  return {
    ended: targetMs <= nowMs,
    days: Math.floor(left / 86_400),
    hours: Math.floor((left % 86_400) / 3600),
    minutes: Math.floor((left % 3600) / 60),
    seconds: left % 60,
  };
}

/** "datetime-local" input value (local wall time) ↔ ISO instant. */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const time = new Date(value).getTime();
  return Number.isFinite(time) ? new Date(time).toISOString() : undefined;
}
