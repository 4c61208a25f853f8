import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { switchLanguage } from "../i18n/i18n";
import { deleteSentence } from "./dashboards";
import { describeChange } from "./history";
import { signinErrorMessage, signupRefusal } from "./signup-rules";
import { describeDiff } from "./version-diff";

describe("the app shell's sentences in German", () => {
  beforeAll(() => switchLanguage("de"));
  afterAll(() => switchLanguage("en"));

  it("counts widgets with the right plural", () => {
    expect(deleteSentence(1)).toMatch(/sein einziges Widget/);
    expect(deleteSentence(7)).toMatch(/seine 7 Widgets/);
    expect(deleteSentence(0)).toMatch(/keine Widgets/);
    expect(describeDiff({ added: 2, removed: 0, moved: 1, edited: 0 })).toBe("2 hinzugefügt, 1 verschoben");
    expect(describeDiff({ added: 0, removed: 0, moved: 0, edited: 0 })).toBe("keine Änderungen an Widgets");
  });

  it("says what undo undoes, and why sign-up was refused", () => {
    expect(describeChange({ kind: "add", id: "w", name: "Uhr" })).toBe("Hinzufügen von Uhr");
    expect(signupRefusal("invite_required", "This invite has expired; ask for a new one")).toBe(
      "Diese Einladung ist abgelaufen; bitte um eine neue.",
    );
    expect(signinErrorMessage("state_mismatch")).toMatch(
      /^Single Sign-on hat nicht funktioniert \(state mismatch\)/,
    );
  });
});
