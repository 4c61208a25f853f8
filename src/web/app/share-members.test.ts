import { describe, expect, it } from "vitest";
import type { Member } from "../../contract/sharing";
import { ApiError } from "../lib/api";
import { initialsOf } from "./PresenceBar";
import {
  addMember,
  candidates,
  changed,
  draftOf,
  inputOf,
  memberErrors,
  removeMember,
  setRole,
} from "./share-members";

const stored: Member[] = [
  { type: "user", id: "u-ben", name: "Ben", role: "viewer" },
  { type: "group", id: "g-design", name: "Design", role: "editor" },
  { type: "everyone", id: null, name: "", role: "viewer" },
];

const directory = {
  users: [
    { id: "u-anna", name: "Anna Berg", image: null },
    { id: "u-ben", name: "Ben", image: null },
    { id: "u-cleo", name: "Cléo Dubois", image: null },
  ],
  groups: [
    { id: "g-design", name: "Design" },
    { id: "g-ops", name: "Operations" },
  ],
};
const options = { ownerId: "u-anna", everyoneName: "Everyone on this instance" };

describe("the share dialog's list of members", () => {
  it("sends each row as the body's member: by id, by email, a group, everyone", () => {
    let draft = draftOf(stored);
    draft = addMember(
      draft,
      { type: "user", id: null, name: "dee@example.test", email: "dee@example.test" },
      "editor",
    );
    expect(draft.map(inputOf)).toEqual([
      { type: "user", id: "u-ben", role: "viewer" },
      { type: "group", id: "g-design", role: "editor" },
      { type: "everyone", role: "viewer" },
      { type: "user", email: "dee@example.test", role: "editor" },
    ]);
  });

  it("knows when it differs from what is stored", () => {
    const draft = draftOf(stored);
    expect(changed(draft, stored)).toBe(false);
    expect(changed(setRole(draft, "user:u-ben", "editor"), stored)).toBe(true);
    expect(changed(removeMember(draft, "everyone"), stored)).toBe(true);
    expect(changed(setRole(setRole(draft, "user:u-ben", "editor"), "user:u-ben", "viewer"), stored)).toBe(
      false,
    );
  });

  it("adds someone once, whatever the case of their address", () => {
    let draft = addMember([], {
      type: "user",
      id: null,
      name: "Dee@Example.test",
      email: "Dee@Example.test",
    });
    draft = addMember(draft, { type: "user", id: null, name: "dee@example.test", email: "dee@example.test" });
    expect(draft).toHaveLength(1);
    expect(draft[0]).toMatchObject({ key: "email:dee@example.test", role: "viewer" });
  });

  it("offers everyone, then groups, then people: never the owner or someone listed already", () => {
    const { shown, more } = candidates(directory, draftOf(stored.slice(0, 1)), "", options);
    expect(shown.map((c) => c.name)).toEqual([
      "Everyone on this instance",
      "Design",
      "Operations",
      "Cléo Dubois",
    ]);
    expect(more).toBe(0);
  });

  it("finds by any part of the name, ignoring case and accents, and says how many more there are", () => {
    expect(candidates(directory, [], "cleo", options).shown.map((c) => c.id)).toEqual(["u-cleo"]);
    expect(candidates(directory, [], "EVERY", options).shown.map((c) => c.type)).toEqual(["everyone"]);
    expect(candidates(directory, [], "", { ...options, limit: 2 })).toMatchObject({ more: 3 });
  });

  it("puts the server's complaints next to the rows its paths name, in the reader's words", () => {
    const draft = addMember(draftOf(stored), {
      type: "user",
      id: null,
      name: "nobody@example.test",
      email: "nobody@example.test",
    });
    const error = new ApiError(
      400,
      {
        type: "about:blank",
        title: "Bad Request",
        status: 400,
        code: "validation_failed",
        detail: "Some members cannot be given access",
        errors: [
          { path: "/members/1", message: 'no group "g-design" on this instance' },
          { path: "/members/3", message: 'no user "nobody@example.test" on this instance' },
          { path: "/members/0", message: "something new" },
        ],
      } as never,
      "Some members cannot be given access",
    );
    const errors = memberErrors(error, draft);
    expect(Object.fromEntries(errors)).toEqual({
      "group:g-design": "This group no longer exists",
      "email:nobody@example.test": "Nobody here has an account with this address",
      "user:u-ben": "something new",
    });
    expect(memberErrors(new Error("offline"), draft).size).toBe(0);
  });

  it("shows up to two initials", () => {
    expect(initialsOf("Anna Berg")).toBe("AB");
    expect(initialsOf("ben")).toBe("B");
    expect(initialsOf("Anna Maria Berg")).toBe("AM");
  });
});
