import { useEffect, useState } from "react";

/** The current time, re-rendering on each period boundary (aligned to the wall clock). */
export function useNow(periodMs = 1000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const current = Date.now();
      setNow(new Date(current));
      timer = setTimeout(tick, periodMs - (current % periodMs) + 5);
    };
    timer = setTimeout(tick, periodMs - (Date.now() % periodMs) + 5);
    return () => clearTimeout(timer);
  }, [periodMs]);
  return now;
}
