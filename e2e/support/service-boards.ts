import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { eventually } from "./page-helpers.js";
import type { E2eApp, Person } from "./web-app.js";
import { startApp } from "./web-app.js";

/**
 * The setup shared by the browser tests of the service widgets (Home Assistant, Jellyfin, Docker,
 * Proxmox…): an admin (and a viewer) on a desktop, integrations saved for everyone, boards opened,
 * shared and published, widgets added from the picker.
 */

/** How the people of these tests browse: a desktop window, in Berlin, in English. */
export const DESKTOP = {
  viewport: { width: 1440, height: 1000 },
  timezoneId: "Europe/Berlin",
  locale: "en-GB",
};

export interface ServiceAppOptions {
  /** Where the people's uncaught page errors go, for the file to check at its end. */
  pageErrors: string[];
  /** The server's environment; by default no private network, see below. */
  env?: Record<string, string>;
  /** A page step's longest wait, where the support's 10 s is too short on a busy machine. */
  stepTimeout?: number;
}

async function startWith(names: string[], options: ServiceAppOptions) {
  // Unset by default: only the integrations' own "home network" choice lets the server reach loopback.
  const app = await startApp({ env: options.env ?? { FETCH_ALLOW_PRIVATE: "" } });
  const people: Person[] = [];
  for (const name of names) {
    const person = await app.person({ name, settings: { theme: "system" }, context: DESKTOP });
    person.page.on("pageerror", (error) => options.pageErrors.push(error.message));
    if (options.stepTimeout) person.page.setDefaultTimeout(options.stepTimeout);
    people.push(person);
  }
  expect((await people[0]!.api("GET", "/api/me")).body.role).toBe("admin");
  return { app, people };
}

/** The compiled server with its first user, the admin Ada, signed up. */
export async function startWithAdmin(options: ServiceAppOptions): Promise<{ app: E2eApp; admin: Person }> {
  const { app, people } = await startWith(["Ada Admin"], options);
  return { app, admin: people[0]! };
}

/** The compiled server with the admin Ada and Vic, a second user, signed up. */
export async function startWithAdminAndViewer(
  options: ServiceAppOptions,
): Promise<{ app: E2eApp; admin: Person; viewer: Person }> {
  const { app, people } = await startWith(["Ada Admin", "Vic Viewer"], options);
  return { app, admin: people[0]!, viewer: people[1]! };
}

/** Saves an integration for everyone through the API; answers it as stored. */
export async function saveForEveryone(admin: Person, body: Record<string, unknown>) {
  const res = await admin.api("POST", "/api/integrations", { owner: "instance", ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** The connection test of a saved integration, as its Test button runs it. */
export async function connectionTest(admin: Person, id: string) {
  return (await admin.api("POST", "/api/integrations/test", { id })).body;
}

/** A new empty board of `person`'s, open on their page; answers its id. */
export async function openNewBoard(app: E2eApp, person: Person, name: string): Promise<string> {
  const { id } = await person.board(name);
  await person.page.goto(`${app.baseUrl}/d/${id}`);
  await person.page.getByRole("heading", { name, level: 1 }).waitFor();
  return id;
}

/** Makes `viewer` a viewer of the owner's board. */
export async function shareWithViewer(owner: Person, boardId: string, viewer: Person) {
  const shared = await owner.api("PUT", "/api/dashboards/members", {
    id: boardId,
    members: [{ type: "user", id: viewer.user.id, role: "viewer" }],
  });
  expect(shared.status, JSON.stringify(shared.body)).toBe(200);
}

/** Makes the owner's board public under its name. */
export async function publish(owner: Person, boardId: string, name: string) {
  const published = await owner.api("PUT", "/api/dashboards", { id: boardId, name, isPublic: true });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
}

/** The board's widgets as stored, once `check` holds for them (a save in the page is on its way). */
export function widgetsOnceSaved(
  person: Person,
  boardId: string,
  check: (stored: { status: number; body: any }) => boolean,
  what: string,
) {
  return eventually(() => person.api("GET", `/api/widgets?dashboardId=${boardId}`), check, what);
}

/** The widgets of a type on the page. */
export const widgetOf = (page: Page, type: string): Locator => page.locator(`[data-widget-type="${type}"]`);

/** Adds a widget through the picker, by the name it shows there; answers the widget of `type`. */
export async function addFromPicker(page: Page, name: string, type: string): Promise<Locator> {
  await page.getByRole("button", { name: "Add widget" }).first().click();
  await page.getByRole("button", { name: new RegExp(`^Add ${name}:`) }).click();
  const added = widgetOf(page, type);
  await added.waitFor();
  return added;
}
