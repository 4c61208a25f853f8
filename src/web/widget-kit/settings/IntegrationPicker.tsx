import type { ReactNode } from "react";
import { useSettingsRoute } from "../../app/settings-route";
import { type Integration, useIntegrations } from "../../integrations/integrations-api";
import { Field } from "../../ui/fields";
import "./integration-picker.css";

/** The words of a widget's integration picker, translated by the widget (each names its service). */
export interface IntegrationWords {
  /** The select's label: "Docker integration". */
  label: string;
  /** Said when there is none to choose: "No Docker integration yet." */
  none: string;
  /** The button after it, which opens Settings › Integrations. */
  openIntegrations: string;
  /** The empty choice while none is chosen. */
  choose: string;
  /** Stands for a saved one the editor cannot see (another person's, or removed). */
  unknown: string;
  /** An instance's integration, shared with everyone: "Home server (shared)". */
  shared(name: string): string;
}

/**
 * The saved integrations of `kinds` the person may use, and whether the list has arrived (so
 * "none yet" is not said while it loads).
 */
export function useIntegrationsOf(kinds: readonly string[]): { list: Integration[]; loaded: boolean } {
  const integrations = useIntegrations();
  return {
    list: (integrations.data ?? []).filter((i) => kinds.includes(i.kind)),
    loaded: integrations.isSuccess,
  };
}

/** "No … integration yet", with the button that leads to where one is made. */
export function NoIntegration({ words }: { words: Pick<IntegrationWords, "none" | "openIntegrations"> }) {
  const settings = useSettingsRoute();
  return (
    <p className="field-hint">
      {words.none}{" "}
      <button type="button" className="integration-link" onClick={() => settings.open("integrations")}>
        {words.openIntegrations}
      </button>
    </p>
  );
}

/**
 * The select of a widget's one integration: the caller's own and the instance's (marked shared).
 * A saved one missing from the list stays chosen, so saving again does not drop it unasked.
 */
export function IntegrationSelect({
  list,
  value,
  onChange,
  words,
  hint,
  name = (integration) => integration.name,
}: {
  list: readonly Integration[];
  value: string | undefined;
  onChange(id: string): void;
  words: IntegrationWords;
  hint?: ReactNode;
  /** How an integration is named in its option (with its service, where the widget reads several). */
  name?(integration: Integration): string;
}) {
  return (
    <Field label={words.label} hint={hint}>
      {(id, describedBy) => (
        <select
          id={id}
          aria-describedby={describedBy}
          value={value ?? ""}
          onChange={(e) => onChange(e.target.value)}
        >
          {!value && <option value="">{words.choose}</option>}
          {value && !list.some((i) => i.id === value) && <option value={value}>{words.unknown}</option>}
          {list.map((integration) => (
            <option key={integration.id} value={integration.id}>
              {integration.owner === "instance" ? words.shared(name(integration)) : name(integration)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The config with the chosen integration; "" (none chosen) leaves the key out. */
export function withIntegration<C extends { integrationId?: string }>(config: C, id: string): C {
  const { integrationId: _old, ...rest } = config;
  return (id ? { ...rest, integrationId: id } : rest) as C;
}

/**
 * A widget's integration in its settings: the select, or, while there is none to choose and none
 * saved, where to make one.
 */
export function IntegrationPicker({
  kinds,
  value,
  onChange,
  ...select
}: {
  kinds: readonly string[];
  value: string | undefined;
  onChange(id: string): void;
} & Omit<Parameters<typeof IntegrationSelect>[0], "list" | "value" | "onChange">) {
  const { list, loaded } = useIntegrationsOf(kinds);
  if (loaded && list.length === 0 && !value) return <NoIntegration words={select.words} />;
  return <IntegrationSelect list={list} value={value} onChange={onChange} {...select} />;
}
