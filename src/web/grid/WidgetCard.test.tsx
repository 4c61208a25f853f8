import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Widget } from "../../contract/resources";
import { defaultAppSettings } from "../lib/app-settings";
import { type CardMode, WidgetCard } from "./WidgetCard";

const widget = {
  id: "w1",
  widgetType: "Countdown",
  config: { title: "Launch" },
  positionX: 0,
  positionY: 0,
  width: 300,
  height: 200,
} as unknown as Widget;
const noop = () => {};
const handlers = {
  onConfig: () => null,
  onRemove: noop,
  onOpenSettings: noop,
  onPointerStart: noop,
  onKeyboardLayout: noop,
};

/** The card's own header, without the widget's body. */
const header = (html: string) => html.match(/<header.*?<\/header>/)?.[0] ?? "";

function card(mode: CardMode, editable = false) {
  const settings = defaultAppSettings();
  return renderToStaticMarkup(
    mode === "edit" ? (
      <WidgetCard widget={widget} mode="edit" editable={editable} settings={settings} {...handlers} />
    ) : (
      <WidgetCard widget={widget} mode={mode} settings={settings} />
    ),
  );
}

describe("the widget card in each mode", () => {
  it("edit: settings always; handle, remove and resize corner only while the layout is being edited", () => {
    const locked = card("edit");
    expect(locked).toContain('<article class="widget-card" data-widget-id="w1" data-widget-type="Countdown"');
    expect(locked).toContain('aria-label="Countdown widget: Launch"');
    expect(locked).toContain('<header class="widget-header ">');
    expect(locked).toContain('aria-label="Countdown settings"');
    expect(locked).not.toMatch(/widget-grip|Remove Countdown|widget-resize/);

    const editing = card("edit", true);
    expect(editing).toContain('<header class="widget-header draggable">');
    expect(editing).toContain('class="icon-button small widget-grip"');
    expect(editing).toContain('class="icon-button small danger" aria-label="Remove Countdown"');
    expect(editing).toContain('<div class="widget-resize" aria-hidden="true"');
  });

  it("view: a signed-in reader's card, read-only, with no controls", () => {
    const html = card("view");
    expect(html).toContain('<article class="widget-card is-readonly"');
    expect(html).toContain('aria-label="Countdown widget: Launch"');
    expect(html).toContain('<header class="widget-header"><svg');
    expect(header(html)).not.toContain("<button");
    expect(html).not.toMatch(/widget-actions|widget-resize/);
  });

  it("public: like view, labelled by the widget's type alone", () => {
    const html = card("public");
    expect(html).toContain('<article class="widget-card is-readonly"');
    expect(html).toContain('aria-label="Countdown widget"');
    expect(header(html)).not.toContain("<button");
    expect(html).not.toMatch(/widget-actions|widget-resize/);
  });
});
