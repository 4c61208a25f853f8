import { describe, expect, it } from "vitest";
import type { Integration, IntegrationKind } from "../../contract/integrations";
import {
  canAddHeader,
  createBody,
  type Draft,
  draftOf,
  draftProblems,
  emptyHeader,
  hasProblems,
  hostOf,
  newDraft,
  problemTarget,
  type SecretRow,
  testRequest,
  updateBody,
  withKind,
} from "./integration-draft";

const custom: IntegrationKind = {
  kind: "custom",
  label: "Custom API",
  description: "Any JSON API",
  urlPlaceholder: "https://service.lan",
  secrets: [],
  headerSecrets: true,
  unixSocket: false,
  clientCertificate: false,
};
const homeAssistant: IntegrationKind = {
  kind: "homeassistant",
  label: "Home Assistant",
  description: "Entities and their states",
  urlPlaceholder: "http://homeassistant.local:8123",
  secrets: [
    { name: "token", label: "Long-lived access token", required: true, help: "Your profile › Security" },
  ],
  headerSecrets: false,
  unixSocket: false,
  clientCertificate: false,
};
const ical: IntegrationKind = {
  kind: "ical",
  label: "Calendar feed",
  description: "An iCal address",
  urlPlaceholder: "https://calendar.example/feed.ics",
  secrets: [{ name: "password", label: "Password", required: false, help: "" }],
  headerSecrets: false,
  unixSocket: false,
  clientCertificate: false,
};

function saved(patch: Partial<Integration> = {}): Integration {
  return {
    id: "0b4c6a0e-9a51-4c55-8a4f-2a2f3c9d7e01",
    kind: "custom",
    name: "NAS",
    url: "http://192.168.1.20:8080",
    owner: "me",
    allowPrivate: false,
    skipTlsVerify: false,
    allowActions: false,
    caCertificate: null,
    secrets: ["X-Api-Key", "Authorization"],
    editable: true,
    provisionKey: null,
    createdAt: "2026-11-28T10:00:00.000Z",
    updatedAt: "2026-11-28T10:00:00.000Z",
    lastCheck: null,
    ...patch,
  };
}

const row = (draft: Draft, name: string) => draft.secrets.find((r) => r.name === name)!;
const change = (draft: Draft, key: string, patch: Partial<SecretRow>): Draft => ({
  ...draft,
  secrets: draft.secrets.map((r) => (r.key === key ? { ...r, ...patch } : r)),
});

describe("a new integration's form", () => {
  it("starts a custom one with one empty header row, and sends only the headers filled in", () => {
    let draft = newDraft(custom);
    expect(draft.secrets).toHaveLength(1);
    draft = { ...draft, name: " Fridge ", url: " http://127.0.0.1:9000 " };
    const first = draft.secrets[0]!;
    draft = change(draft, first.key, { name: "X-Api-Key", value: "s3cret" });
    draft = { ...draft, secrets: [...draft.secrets, emptyHeader()] };
    expect(hasProblems(draftProblems(draft))).toBe(false);
    expect(createBody(draft, "me")).toEqual({
      kind: "custom",
      name: "Fridge",
      url: "http://127.0.0.1:9000",
      owner: "me",
      secrets: { "X-Api-Key": "s3cret" },
    });
  });

  it("sends the admin-only settings and the certificate only when given", () => {
    const draft: Draft = {
      ...newDraft(custom),
      name: "Router",
      url: "https://10.0.0.1",
      allowPrivate: true,
      allowActions: true,
      caCertificate: "  -----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
    };
    expect(createBody(draft, "instance")).toEqual({
      kind: "custom",
      name: "Router",
      url: "https://10.0.0.1",
      owner: "instance",
      allowPrivate: true,
      allowActions: true,
      caCertificate: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
    });
    // A test reaches the service as saving would, but acts on nothing: no actions asked for.
    expect(testRequest(draft).body).toEqual({
      kind: "custom",
      url: "https://10.0.0.1",
      allowPrivate: true,
      caCertificate: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
    });
  });

  it("finds a header without a name or value, a bad name, the same name twice, a required field left empty", () => {
    let draft: Draft = { ...newDraft(custom), name: "", url: "" };
    const [a] = draft.secrets;
    const b = emptyHeader();
    const c = emptyHeader();
    const d = emptyHeader();
    draft = { ...draft, secrets: [a!, b, c, d] };
    draft = change(draft, a!.key, { name: "X-Token", value: "" });
    draft = change(draft, b.key, { name: "", value: "v" });
    draft = change(draft, c.key, { name: "Bad Header", value: "v" });
    draft = change(draft, d.key, { name: "x-token", value: "v" });
    expect(draftProblems(draft)).toEqual({
      name: "missing",
      url: "missing",
      secrets: {
        [a!.key]: "valueMissing",
        [b.key]: "nameMissing",
        [c.key]: "nameInvalid",
        [d.key]: "nameTwice",
      },
    });

    const ha = newDraft(homeAssistant);
    expect(draftProblems({ ...ha, name: "HA", url: "http://ha.lan" }).secrets).toEqual({
      [row(ha, "token").key]: "valueMissing",
    });
    // An optional field may stay empty, and is then not sent.
    const feed = { ...newDraft(ical), name: "Family", url: "webcal://cal.example/f.ics" };
    expect(hasProblems(draftProblems(feed))).toBe(false);
    expect(createBody(feed, "me")).not.toHaveProperty("secrets");
  });

  it("keeps a value typed for a field of the same name when the kind changes", () => {
    let draft = newDraft(ical);
    draft = change(draft, row(draft, "password").key, { value: "pw" });
    const other: IntegrationKind = { ...homeAssistant, secrets: [{ ...ical.secrets[0]!, required: true }] };
    expect(row(withKind(draft, other), "password").value).toBe("pw");
    expect(withKind(draft, custom).secrets).toEqual([
      expect.objectContaining({ name: "", value: "", field: false }),
    ]);
  });

  it("allows ten headers at most", () => {
    const draft = newDraft(custom);
    const ten = { ...draft, secrets: Array.from({ length: 10 }, emptyHeader) };
    expect(canAddHeader({ ...draft, secrets: ten.secrets.slice(0, 9) })).toBe(true);
    expect(canAddHeader(ten)).toBe(false);
  });

  it("tests the form as it stands", () => {
    let draft: Draft = { ...newDraft(custom), name: "x", url: "http://127.0.0.1:9000/", allowPrivate: true };
    draft = change(draft, draft.secrets[0]!.key, { name: "X-Api-Key", value: "k" });
    expect(testRequest(draft)).toEqual({
      body: {
        kind: "custom",
        url: "http://127.0.0.1:9000/",
        allowPrivate: true,
        secrets: { "X-Api-Key": "k" },
      },
    });
  });
});

describe("saving changes to an integration", () => {
  it("shows saved secrets as set, and sends nothing when nothing changed", () => {
    const draft = draftOf(saved(), custom);
    expect(draft.secrets.map((r) => [r.name, r.saved, r.action])).toEqual([
      ["X-Api-Key", true, "keep"],
      ["Authorization", true, "keep"],
    ]);
    expect(updateBody(draft, saved())).toEqual({});
    expect(testRequest(draft, saved())).toEqual({ body: { id: saved().id } });
  });

  it("names only the changed fields and secrets: a replaced one with its value, a removed one with null", () => {
    let draft = draftOf(saved({ caCertificate: "PEM" }), custom);
    draft = change(draft, row(draft, "X-Api-Key").key, { action: "replace", value: "new-key" });
    draft = change(draft, row(draft, "Authorization").key, { action: "remove" });
    draft = {
      ...draft,
      name: "NAS 2",
      caCertificate: " ",
      secrets: [...draft.secrets, { ...emptyHeader(), name: "X-Extra", value: "e" }],
    };
    expect(hasProblems(draftProblems(draft))).toBe(false);
    expect(updateBody(draft, saved({ caCertificate: "PEM" }))).toEqual({
      name: "NAS 2",
      caCertificate: null,
      secrets: { "X-Api-Key": "new-key", Authorization: null, "X-Extra": "e" },
    });
  });

  it("treats a header removed and added again under the same name as its replacement", () => {
    let draft = draftOf(saved(), custom);
    draft = change(draft, row(draft, "Authorization").key, { action: "remove" });
    draft = {
      ...draft,
      secrets: [...draft.secrets, { ...emptyHeader(), name: "authorization", value: "Bearer b" }],
    };
    expect(hasProblems(draftProblems(draft))).toBe(false);
    expect(updateBody(draft, saved()).secrets).toEqual({ Authorization: "Bearer b" });
  });

  it("refuses a new header under a saved one's name, and a replacement left empty", () => {
    let draft = draftOf(saved(), custom);
    const extra = { ...emptyHeader(), name: "x-api-key", value: "v" };
    draft = { ...draft, secrets: [...draft.secrets, extra] };
    draft = change(draft, row(draft, "Authorization").key, { action: "replace", value: "" });
    expect(draftProblems(draft).secrets).toEqual({
      [row(draft, "Authorization").key]: "replacementMissing",
      [extra.key]: "savedSameName",
    });
  });

  it("changes the admin-only settings only when they differ", () => {
    const before = saved({ allowPrivate: true });
    const draft = {
      ...draftOf(before, custom),
      allowPrivate: false,
      skipTlsVerify: true,
      allowActions: true,
    };
    expect(updateBody(draft, before)).toEqual({
      allowPrivate: false,
      skipTlsVerify: true,
      allowActions: true,
    });
  });

  it("keeps a kind's field for a saved secret, and lists a saved secret the kind no longer names", () => {
    const before = saved({ kind: "homeassistant", secrets: ["token", "old"] });
    const draft = draftOf(before, homeAssistant);
    expect(draft.secrets.map((r) => [r.name, r.field, r.required, r.saved])).toEqual([
      ["token", true, true, true],
      ["old", false, false, true],
    ]);
  });

  it("tests a changed form without its saved secrets only when none is kept", () => {
    const before = saved();
    let draft = { ...draftOf(before, custom), url: "http://192.168.1.21:8080" };
    expect(testRequest(draft, before)).toEqual({ body: null });
    draft = change(draft, row(draft, "X-Api-Key").key, { action: "replace", value: "k2" });
    draft = change(draft, row(draft, "Authorization").key, { action: "remove" });
    expect(testRequest(draft, before)).toEqual({
      body: { kind: "custom", url: "http://192.168.1.21:8080", secrets: { "X-Api-Key": "k2" } },
    });
  });
});

describe("the server's answers", () => {
  it("puts a field error on its field or on the secret it names", () => {
    const draft = draftOf(saved(), custom);
    expect(problemTarget("/name", draft)).toBe("name");
    expect(problemTarget("/url", draft)).toBe("url");
    expect(problemTarget("/caCertificate", draft)).toBe("caCertificate");
    expect(problemTarget("/secrets/x-api-key", draft)).toEqual({ secret: row(draft, "X-Api-Key").key });
    expect(problemTarget("/secrets/Unknown", draft)).toBe("form");
    expect(problemTarget("/owner", draft)).toBe("form");
  });

  it("names an integration by its host", () => {
    expect(hostOf("http://192.168.1.20:8080/api")).toBe("192.168.1.20:8080");
    expect(hostOf("webcal://calendar.example/feed.ics")).toBe("calendar.example");
    expect(hostOf("not a url")).toBe("not a url");
  });
});
