import type { Page } from "playwright-core";
import { expect } from "vitest";

/** Calls the API from inside the page's context (its cookies, our Origin), as the app itself would. */
export function pageApi(page: () => Page, baseUrl: () => string) {
  return async function api<T = any>(
    method: string,
    url: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const origin = baseUrl();
    const res = await page().request.fetch(`${origin}${url}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json", origin },
      data: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status(), body: (text ? JSON.parse(text) : null) as T };
  };
}

/** Polls `read` until `check` holds, failing with the last value seen after `timeout` ms. */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  what: string,
  timeout = 10_000,
) {
  const deadline = Date.now() + timeout;
  let last: T = await read();
  while (!check(last)) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 150));
    last = await read();
  }
  return last;
}

/**
 * Resolves once the page's finite CSS transitions and animations have ended: buttons ease their
 * colours (0.12 s) and dialogs fade in, so a colour read (or an axe contrast check) in the middle
 * of one reads a colour on its way. Endless animations (spinners) are not waited for.
 */
export async function stylesSettled(on: Page) {
  await on.evaluate(async () => {
    for (;;) {
      const running = document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState === "running" &&
            animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY,
        );
      if (running.length === 0) return;
      await Promise.all(running.map((animation) => animation.finished.catch(() => {})));
    }
  });
}

/**
 * Puts the page in the light or dark scheme and waits until it shows it, settled, for a
 * screenshot: the app follows the system's theme as it changes; the sign-in pages take it as
 * they load, so they are reloaded when they did not follow.
 */
export async function inScheme(on: Page, scheme: "light" | "dark") {
  await on.emulateMedia({ colorScheme: scheme });
  const theme = () => on.evaluate(() => document.documentElement.dataset.theme);
  const followed = await expect
    .poll(theme, { timeout: 2000 })
    .toBe(scheme)
    .then(
      () => true,
      () => false,
    );
  if (!followed) await on.reload();
  await expect.poll(theme).toBe(scheme);
  await stylesSettled(on);
}
