import { describe, expect, it } from "vitest";
import { type Todo, todoWidget } from "../contract";
import {
  addTodo,
  clearDone,
  dueFromInput,
  dueInputValue,
  dueLabel,
  editTodo,
  removeTodo,
  setDue,
  toggleTodo,
  unfinished,
} from "./logic";

describe("Todo changes", () => {
  it("adds, toggles, edits, removes and clears done todos", () => {
    let config = todoWidget.defaults();
    config = addTodo(config, { id: "1", text: "One", done: false, createdAt: "" });
    config = addTodo(config, { id: "2", text: "Two", done: false, createdAt: "" });
    config = toggleTodo(config, "1");
    config = editTodo(config, "2", "Two!");
    expect(unfinished(config)).toBe(1);
    expect(clearDone(config).todos.map((t) => t.text)).toEqual(["Two!"]);
    expect(removeTodo(config, "2").todos.map((t) => t.id)).toEqual(["1"]);
  });
});

describe("Todo due times", () => {
  const todo = (extra: Partial<Todo> = {}): Todo => ({
    id: "1",
    text: "Pay rent",
    done: false,
    createdAt: "",
    ...extra,
  });

  it("reads and writes datetime-local values on the user's zone's wall clock, not the browser's", () => {
    // 18:30 in New York in March (EDT, UTC-4 after 8 March 2026) is 22:30 UTC.
    expect(dueFromInput("2026-03-12T18:30", "America/New_York")).toBe("2026-03-12T22:30:00.000Z");
    expect(dueInputValue("2026-03-12T22:30:00.000Z", "America/New_York")).toBe("2026-03-12T18:30");
    // The same wall time in Berlin (CET, UTC+1) and Tokyo (no DST).
    expect(dueFromInput("2026-01-15T09:00", "Europe/Berlin")).toBe("2026-01-15T08:00:00.000Z");
    expect(dueFromInput("2026-07-15T09:00", "Europe/Berlin")).toBe("2026-07-15T07:00:00.000Z");
    expect(dueInputValue("2026-07-15T07:00:00.000Z", "Asia/Tokyo")).toBe("2026-07-15T16:00");
    // Seconds that some browsers add are accepted; a round trip is stable.
    expect(dueFromInput("2026-01-15T09:00:00", "UTC")).toBe("2026-01-15T09:00:00.000Z");
    const iso = dueFromInput("2026-10-25T01:15", "Europe/London")!;
    expect(dueInputValue(iso, "Europe/London")).toBe("2026-10-25T01:15");
  });

  it("moves a time in a DST gap forward by the gap, as calendars do", () => {
    // 02:30 does not exist in Berlin on 29 March 2026: clocks go from 02:00 to 03:00.
    expect(dueInputValue(dueFromInput("2026-03-29T02:30", "Europe/Berlin"), "Europe/Berlin")).toBe(
      "2026-03-29T03:30",
    );
  });

  it("refuses empty and unreadable input instead of guessing", () => {
    expect(dueFromInput("", "UTC")).toBeUndefined();
    expect(dueFromInput("2026-03-12", "UTC")).toBeUndefined();
    expect(dueFromInput("tomorrow", "UTC")).toBeUndefined();
    expect(dueInputValue(undefined, "UTC")).toBe("");
    expect(dueInputValue("not a date", "UTC")).toBe("");
  });

  it("sets and clears a due time, leaving the key out when cleared, and passes the server's check", () => {
    const config = { todos: [todo(), todo({ id: "2", text: "Other" })] };
    const due = setDue(config, "1", "2026-03-12T22:30:00.000Z");
    expect(due.todos[0]).toMatchObject({ dueAt: "2026-03-12T22:30:00.000Z" });
    expect(due.todos[1]).not.toHaveProperty("dueAt");
    expect(todoWidget.alerts?.check(due)).toEqual([]);
    expect(todoWidget.parse(due).todos[0]!.dueAt).toBe("2026-03-12T22:30:00.000Z");
    const cleared = setDue(due, "1", undefined);
    expect(cleared.todos[0]).not.toHaveProperty("dueAt");
    expect(cleared.todos[0]).toMatchObject({ id: "1", text: "Pay rent" });
  });

  it("labels the due time briefly in the user's zone and marks it overdue only while open", () => {
    const now = Date.parse("2026-03-12T10:00:00Z");
    const berlin = { timezone: "Europe/Berlin", hourFormat: "24" as const };
    expect(dueLabel(todo({ dueAt: "2026-03-12T17:00:00Z" }), now, berlin, "en-GB")).toEqual({
      text: "Today 18:00",
      overdue: false,
    });
    expect(dueLabel(todo({ dueAt: "2026-03-13T07:30:00Z" }), now, berlin, "en-GB")?.text).toBe(
      "Tomorrow 08:30",
    );
    expect(dueLabel(todo({ dueAt: "2026-03-11T20:00:00Z" }), now, berlin, "en-GB")).toEqual({
      text: "Yesterday 21:00",
      overdue: true,
    });
    expect(dueLabel(todo({ dueAt: "2026-03-11T20:00:00Z", done: true }), now, berlin, "en-GB")?.overdue).toBe(
      false,
    );
    expect(dueLabel(todo({ dueAt: "2026-04-02T08:00:00Z" }), now, berlin, "en-GB")?.text).toBe("2 Apr 10:00");
    expect(dueLabel(todo({ dueAt: "2027-01-02T08:00:00Z" }), now, berlin, "en-GB")?.text).toBe(
      "2 Jan 2027 09:00",
    );
    // 23:30 UTC is already tomorrow in Berlin.
    expect(dueLabel(todo({ dueAt: "2026-03-12T23:30:00Z" }), now, berlin, "en-GB")?.text).toBe(
      "Tomorrow 00:30",
    );
    expect(dueLabel(todo(), now, berlin)).toBeNull();
  });
});
