import { type KeyboardEvent, memo, type PointerEvent, useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { Widget } from "../../contract/resources";
import type { AppSettings } from "../lib/app-settings";
import { ErrorBoundary } from "../ui/ErrorBoundary";
import { Icon } from "../ui/icons";
import { widgetName } from "../widget-kit/registry";
import type { WidgetDefinition } from "../widget-kit/types";
import { keepLayout } from "./items";

export type DragMode = "move" | "resize";

export interface WidgetFrameProps {
  widget: Widget;
  definition: WidgetDefinition<object>;
  settings: AppSettings;
  /** "Edit layout" is on: the card can be dragged, resized, moved by keyboard and removed. */
  editable: boolean;
  /** Applies a config change to the store and returns the new stored config. */
  onConfig(id: string, next: (raw: unknown) => Record<string, unknown>): Record<string, unknown> | null;
  onRemove(id: string): void;
  onOpenSettings(id: string): void;
  onPointerStart(id: string, mode: DragMode, event: PointerEvent<HTMLElement>): void;
  onKeyboardLayout(id: string, event: KeyboardEvent<HTMLElement>): void;
}

/** A widget's card: header with its drag handle and actions, the body, and the resize corner. */
export const WidgetFrame = memo(function WidgetFrame({
  widget,
  definition,
  settings,
  editable,
  onConfig,
  onRemove,
  onOpenSettings,
  onPointerStart,
  onKeyboardLayout,
}: WidgetFrameProps) {
  const { t } = useTranslation();
  const config = useMemo(() => definition.parseConfig(widget.config), [definition, widget.config]);
  const name = widgetName(definition.type, t);
  const title = definition.title?.(config) || name;

  // Functional updates read the latest stored config, never a stale render's copy.
  const update = useCallback(
    (next: object | ((current: object) => object)) => {
      onConfig(widget.id, (current) => {
        const value = typeof next === "function" ? next(definition.parseConfig(current)) : next;
        return keepLayout(current, JSON.parse(JSON.stringify(value)) as Record<string, unknown>);
      });
    },
    [onConfig, widget.id, definition],
  );
  const openSettings = useCallback(() => onOpenSettings(widget.id), [onOpenSettings, widget.id]);
  const { Component } = definition;

  return (
    <article
      className="widget-card"
      data-widget-id={widget.id}
      data-widget-type={widget.widgetType}
      aria-label={
        title !== name
          ? t("grid.frame.labelWithTitle", { name: name, title })
          : t("grid.frame.label", { name: name })
      }
    >
      <header
        className={`widget-header ${editable ? "draggable" : ""}`}
        onPointerDown={editable ? (event) => onPointerStart(widget.id, "move", event) : undefined}
      >
        {editable && (
          <button
            type="button"
            className="icon-button small widget-grip"
            aria-label={t("grid.frame.move", { name: name })}
            title={t("grid.frame.moveTitle")}
            onKeyDown={(event) => onKeyboardLayout(widget.id, event)}
          >
            <Icon name="grip" size={16} />
          </button>
        )}
        <Icon name={definition.icon} size={15} className="widget-icon" />
        <h2 className="widget-title">{title}</h2>
        <div className="widget-actions" onPointerDown={(event) => event.stopPropagation()}>
          {definition.settings && (
            <button
              type="button"
              className="icon-button small"
              aria-label={t("grid.frame.settings", { name: name })}
              title={t("grid.frame.settingsTitle")}
              onClick={openSettings}
            >
              <Icon name="settings" size={15} />
            </button>
          )}
          {editable && (
            <button
              type="button"
              className="icon-button small danger"
              aria-label={t("grid.frame.remove", { name: name })}
              title={t("common.remove")}
              onClick={() => onRemove(widget.id)}
            >
              <Icon name="x" size={15} />
            </button>
          )}
        </div>
      </header>
      <div className="widget-body">
        <ErrorBoundary>
          <Component
            widget={widget}
            config={config}
            update={update}
            settings={settings}
            openSettings={openSettings}
            readOnly={false}
          />
        </ErrorBoundary>
      </div>
      {editable && (
        <div
          className="widget-resize"
          aria-hidden="true"
          title={t("grid.frame.resizeTitle")}
          onPointerDown={(event) => onPointerStart(widget.id, "resize", event)}
        />
      )}
    </article>
  );
});
