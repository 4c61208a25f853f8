import { describe, expect, it } from "vitest";
import { matchingUsers, memberNames } from "./groups";

const users = [
  { id: "1", name: "Grace Hopper", email: "grace@example.test" },
  { id: "2", name: "Ada Lovelace", email: "ada@example.test" },
  { id: "3", name: "Alan Turing", email: "alan@math.example" },
];

describe("groups on the admin page", () => {
  it("names a group's members alphabetically, leaving out accounts that are gone", () => {
    expect(memberNames(["1", "gone", "2"], users)).toEqual({
      names: ["Ada Lovelace", "Grace Hopper"],
      more: 0,
    });
    expect(memberNames(["1", "2", "3"], users, 2)).toEqual({
      names: ["Ada Lovelace", "Alan Turing"],
      more: 1,
    });
    expect(memberNames([], users)).toEqual({ names: [], more: 0 });
  });

  it("finds people by name or address", () => {
    expect(matchingUsers(users, "").map((u) => u.id)).toEqual(["2", "3", "1"]);
    expect(matchingUsers(users, "MATH").map((u) => u.id)).toEqual(["3"]);
    expect(matchingUsers(users, " grace ").map((u) => u.id)).toEqual(["1"]);
  });
});
