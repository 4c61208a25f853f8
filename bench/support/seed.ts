// Seeding a running server over its own API, as a user would, for the benchmarks.

/** A signed-in user of a running server. */
export interface Session {
  base: string;
  cookie: string;
}

export async function call(s: Session, method: string, url: string, body?: unknown) {
  const res = await fetch(`${s.base}${url}`, {
    method,
    headers: { cookie: s.cookie, origin: s.base, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
}

export async function pool(count: number, limit: number, task: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

const WIDGET_KINDS = ["Clock", "Todo", "Kanban", "Editor", "Bookmark", "Countdown"] as const;

/** `count` widgets on the dashboard, 8 at a time: 13 of mixed kinds (the page-load dashboard), else Todos. */
export async function addWidgets(s: Session, dashboardId: string, count: number) {
  await pool(count, 8, async (i) => {
    await call(s, "POST", "/api/widgets", {
      dashboardId,
      widgetType: count === 13 ? WIDGET_KINDS[i % WIDGET_KINDS.length] : "Todo",
      height: 220,
      width: 320,
      positionX: (i % 4) * 340,
      positionY: Math.floor(i / 4) * 240,
      config:
        count === 13
          ? {}
          : {
              todos: [{ id: `t${i}`, text: `Task ${i}`, done: false, createdAt: new Date(0).toISOString() }],
            },
    });
  });
}
