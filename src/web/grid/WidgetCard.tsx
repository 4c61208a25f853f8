import { type KeyboardEvent, memo, type PointerEvent, Suspense, useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { Widget } from "../../contract/resources";
import type { AppSettings } from "../lib/app-settings";
import { sameJson } from "../lib/live-sync";
import { useOptionalWidgetStore } from "../lib/widget-store";
import { ErrorBoundary } from "../ui/ErrorBoundary";
import { Icon, IconButton } from "../ui/icons";
import { Skeleton } from "../ui/States";
import { definitionFor, widgetName } from "../widget-kit/registry";
import type { ConfigChange } from "../widget-kit/types";
import { EditingBadge } from "./EditingBadge";
import { keepLayout } from "./items";

export type DragMode = "move" | "resize";

/**
 * Who is looking: "edit", someone who may change the dashboard; "view", a signed-in reader who
 * may not; "public", a visitor of a published dashboard, with no session.
 */
export type CardMode = "edit" | "view" | "public";

interface CardBase {
  widget: Widget;
  settings: AppSettings;
}

export interface EditCardProps extends CardBase {
  mode: "edit";
  /** "Edit layout" is on: the card can be dragged, resized, moved by keyboard and removed. */
  editable: boolean;
  /** Applies a config change to the store and returns the new stored config. */
  onConfig(id: string, next: (raw: unknown) => Record<string, unknown>): Record<string, unknown> | null;
  /** `viaKeyboard`: the button was pressed with a key (the focus then goes to the Undo toast). */
  onRemove(id: string, viaKeyboard: boolean): void;
  onOpenSettings(id: string): void;
  onPointerStart(id: string, mode: DragMode, event: PointerEvent<HTMLElement>): void;
  onKeyboardLayout(id: string, event: KeyboardEvent<HTMLElement>): void;
}

interface ReadCardProps extends CardBase {
  mode: "view" | "public";
}

export type WidgetCardProps = EditCardProps | ReadCardProps;

/**
 * A widget's card: header (title, and for an editor the drag handle and actions), the body, and
 * for an editor the resize corner. Readers get the widget's read-only view and no controls.
 */
export const WidgetCard = memo(function WidgetCard(props: WidgetCardProps) {
  const { widget, settings, mode } = props;
  const edit = props.mode === "edit" ? props : null;
  // "Edit layout" is on: the card moves, resizes and can be removed.
  const layout = edit?.editable ? edit : null;
  const { t } = useTranslation();
  const definition = definitionFor(widget.widgetType);
  const config = useMemo(() => definition.parseConfig(widget.config), [definition, widget.config]);
  const name = widgetName(definition.type, t);
  const title = definition.title?.(config) || name;

  // Functional updates read the latest stored config, never a stale render's copy. A reader's
  // widget never writes: `update` does nothing there.
  const onConfig = edit?.onConfig;
  const update = useCallback(
    (next: object | ((current: object) => object)) => {
      onConfig?.(widget.id, (current) => {
        const value = typeof next === "function" ? next(definition.parseConfig(current)) : next;
        return keepLayout(current, JSON.parse(JSON.stringify(value)) as Record<string, unknown>);
      });
    },
    [onConfig, widget.id, definition],
  );
  // A part of the config changed as JSON Patch (widget-sync.ts). Operations name places in the
  // config as stored, so only where reading it changed nothing; else the whole config is saved.
  const store = useOptionalWidgetStore();
  const patch = useCallback(
    (change: ConfigChange<object>) => {
      if (!onConfig) return;
      const whole = (raw: unknown) =>
        keepLayout(raw, JSON.parse(JSON.stringify(change.apply(definition.parseConfig(raw)))));
      if (!store) return void onConfig(widget.id, whole);
      store.patchConfig(
        widget.dashboardId,
        widget.id,
        (raw) => {
          const parsed = definition.parseConfig(raw);
          return sameJson(parsed, keepLayout(undefined, raw)) ? change.ops(parsed) : null;
        },
        whole,
      );
    },
    [onConfig, store, widget.dashboardId, widget.id, definition],
  );
  const onOpenSettings = edit?.onOpenSettings;
  const openSettings = useCallback(() => onOpenSettings?.(widget.id), [onOpenSettings, widget.id]);
  const { Component } = definition;

  return (
    <article
      className={edit ? "widget-card" : "widget-card is-readonly"}
      data-widget-id={widget.id}
      data-widget-type={widget.widgetType}
      aria-label={
        mode === "public"
          ? t("public.widgetLabel", { name })
          : title !== name
            ? t("grid.frame.labelWithTitle", { name, title })
            : t("grid.frame.label", { name })
      }
    >
      <header
        className={edit ? `widget-header ${layout ? "draggable" : ""}` : "widget-header"}
        onPointerDown={layout ? (event) => layout.onPointerStart(widget.id, "move", event) : undefined}
      >
        {layout && (
          <IconButton
            icon="grip"
            size={16}
            className="small widget-grip"
            label={t("grid.frame.move", { name })}
            title={t("grid.frame.moveTitle")}
            onKeyDown={(event) => layout.onKeyboardLayout(widget.id, event)}
          />
        )}
        <Icon name={definition.icon} size={15} className="widget-icon" />
        <h2 className="widget-title">{title}</h2>
        {mode !== "public" && <EditingBadge dashboardId={widget.dashboardId} widgetId={widget.id} />}
        {edit && (
          <div className="widget-actions" onPointerDown={(event) => event.stopPropagation()}>
            {definition.settings && (
              <IconButton
                icon="settings"
                size={15}
                className="small"
                label={t("grid.frame.settings", { name })}
                title={t("grid.frame.settingsTitle")}
                onClick={openSettings}
              />
            )}
            {layout && (
              <IconButton
                icon="x"
                size={15}
                className="small danger"
                label={t("grid.frame.remove", { name })}
                title={t("common.remove")}
                onClick={(event) => layout.onRemove(widget.id, event.detail === 0)}
              />
            )}
          </div>
        )}
      </header>
      <div className="widget-body">
        <ErrorBoundary>
          {/* A type's view may be its own chunk (lazy), fetched the first time a card shows it. */}
          <Suspense fallback={<Skeleton className="widget-loading" height="100%" width="100%" />}>
            <Component
              widget={widget}
              config={config}
              update={update}
              patch={patch}
              settings={settings}
              openSettings={openSettings}
              readOnly={!edit}
            />
          </Suspense>
        </ErrorBoundary>
      </div>
      {layout && (
        <div
          className="widget-resize"
          aria-hidden="true"
          title={t("grid.frame.resizeTitle")}
          onPointerDown={(event) => layout.onPointerStart(widget.id, "resize", event)}
        />
      )}
    </article>
  );
});
