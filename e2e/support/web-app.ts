import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from "playwright-core";
import { expect } from "vitest";
import { type CompiledServer, compiled, startCompiledServer } from "../../test/support/compiled.js";

export { exchangeEnv, oauthThrough, providersEnv } from "../../test/support/compiled.js";

import { freePort } from "../../test/support/ports.js";
import { pageApi } from "./page-helpers.js";

export { freePort };

/** A widget to put on a board: the body of POST /api/widgets without its dashboard. */
export interface WidgetSeed {
  widgetType: string;
  positionX?: number;
  positionY?: number;
  width?: number;
  height?: number;
  config?: Record<string, unknown>;
}

export type Api = ReturnType<typeof pageApi>;

/** A person in their own browser context, signed up, with onboarding done. */
export interface Person {
  context: BrowserContext;
  page: Page;
  /** The API from inside the page (its cookies, our Origin), as the app itself calls it. */
  api: Api;
  user: { id: string; name: string; email: string };
  /** A dashboard of theirs holding `widgets`; answers its id and the widgets as created. */
  board(name: string, widgets?: WidgetSeed[]): Promise<{ id: string; widgets: any[] }>;
}

export interface PersonOptions {
  name?: string;
  email?: string;
  password?: string;
  context?: BrowserContextOptions;
  /** Settings `config` beyond the defaults below (light theme, no reminder prompts). */
  settings?: Record<string, unknown>;
  /** Leaves onboarding on, for the tests of onboarding itself. */
  onboarding?: boolean;
}

/**
 * The app as its users get it: the compiled server (built once for the whole test run, started as
 * `npm start` starts it, configured only by its environment) serving the compiled web app, and
 * Debian's Chromium. `person()` makes a signed-up user in a context of their own, so tests in a
 * file need not share one page.
 */
export interface E2eApp {
  server: CompiledServer;
  /** The compiled web app the server serves (dist/web as `npm run build` writes it). */
  webDist: string;
  baseUrl: string;
  browser: Browser;
  person(options?: PersonOptions): Promise<Person>;
  stop(): Promise<void>;
}

let people = 0;

export async function startApp(
  options: { env?: Record<string, string>; port?: number } = {},
): Promise<E2eApp> {
  const artifact = await compiled();
  const [server, browser] = await Promise.all([
    startCompiledServer({
      server: artifact.server,
      dataTemplate: artifact.dataTemplate,
      port: options.port,
      env: { WEB_DIST: artifact.web, ...options.env },
    }),
    launchChromium(),
  ]);
  const { baseUrl } = server;
  return {
    server,
    webDist: artifact.web,
    baseUrl,
    browser,
    async person(given = {}) {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: "en-GB",
        ...given.context,
      });
      const page = await context.newPage();
      // A step that fails should fail fast, not hold the rest up for the default 30 s.
      page.setDefaultTimeout(10_000);
      const api = pageApi(
        () => page,
        () => baseUrl,
      );
      const name = given.name ?? "Ada Lovelace";
      const email = given.email ?? `person-${Date.now()}-${++people}@example.test`;
      const signUp = await api("POST", "/api/auth/sign-up/email", {
        name,
        email,
        password: given.password ?? "a-long-enough-password",
      });
      expect(signUp.status, JSON.stringify(signUp.body)).toBe(200);
      const settings = await api("GET", "/api/settings");
      const saved = await api("PUT", "/api/settings", {
        id: settings.body[0].id,
        onboardingCompleted: !given.onboarding,
        config: {
          theme: "light",
          todoReminder: false,
          countdownReminder: false,
          meetingReminder: false,
          ...given.settings,
        },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      return {
        context,
        page,
        api,
        user: signUp.body.user,
        async board(boardName, widgets = []) {
          const board = await api("POST", "/api/dashboards", { name: boardName });
          expect(board.status, JSON.stringify(board.body)).toBe(201);
          const created = [];
          for (const [i, seed] of widgets.entries()) {
            const widget = await api("POST", "/api/widgets", {
              dashboardId: board.body.id,
              positionX: 0,
              positionY: i * 300,
              width: 360,
              height: 280,
              config: {},
              ...seed,
            });
            expect(widget.status, JSON.stringify(widget.body)).toBe(201);
            created.push(widget.body);
          }
          return { id: board.body.id, widgets: created };
        },
      };
    },
    async stop() {
      await browser.close();
      const code = await server.stop();
      // A clean stop is part of what ships: SIGTERM drains and exits 0.
      expect(code, server.lines.slice(-20).join("\n")).toBe(0);
    },
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}
