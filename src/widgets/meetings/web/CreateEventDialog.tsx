import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../web/lib/api";
import type { AppSettings } from "../../../web/lib/app-settings";
import { dataApi, dataKeys, type NewEvent } from "../../../web/lib/data-api";
import { Dialog } from "../../../web/ui/Dialog";
import { Field } from "../../../web/ui/fields";
import { Skeleton } from "../../../web/ui/States";
import { useToasts } from "../../../web/ui/Toasts";
import { describeDataError } from "../../../web/widget-kit/data/errors";
import { zonedTimeToUtc } from "../../../web/widget-kit/data/format";
import { defaultEventTimes, validateEvent } from "./logic";
import { calendarsQuery } from "./queries";

export default function CreateEventDialog({ settings, onClose }: { settings: AppSettings; onClose(): void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const toasts = useToasts();
  const calendars = useQuery(calendarsQuery);
  const writable = (calendars.data ?? []).filter((c) => c.writable);
  const [form, setForm] = useState(() => ({
    /** Empty until chosen: then the primary calendar (or the first writable one) is meant. */
    calendarId: "",
    title: "",
    location: "",
    meet: false,
    ...defaultEventTimes(Date.now(), settings.timezone),
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (patch: Partial<typeof form>) => {
    setForm((f) => ({ ...f, ...patch }));
    setErrors({});
  };

  const create = useMutation({
    mutationFn: (event: NewEvent) => dataApi.calendar.create(event),
    onSuccess: (event) => {
      void client.invalidateQueries({ queryKey: [...dataKeys.provider("suite"), "events"] });
      toasts.show({ tone: "success", message: t("widgets.meetings.create.created", { title: event.title }) });
      onClose();
    },
    onError: (error) =>
      setErrors({
        form:
          error instanceof ApiError && error.status === 403
            ? t("widgets.meetings.create.forbidden")
            : // By problem code, never the server's English field messages (the form checks fields
              // first); a failure of Google's says so rather than "the service behind this".
              describeDataError(error, "suite"),
      }),
  });

  const calendarId = form.calendarId || ((writable.find((c) => c.primary) ?? writable[0])?.id ?? "");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = validateEvent({ ...form, calendarId });
    if (Object.keys(problems).length) {
      setErrors(problems);
      return;
    }
    create.mutate({
      calendarId,
      title: form.title.trim(),
      start: zonedTimeToUtc(form.date, form.start, settings.timezone).toISOString(),
      end: zonedTimeToUtc(form.date, form.end, settings.timezone).toISOString(),
      timeZone: settings.timezone,
      location: form.location.trim() || undefined,
      meet: form.meet || undefined,
    });
  };

  return (
    <Dialog
      open
      onClose={onClose}
      size="sm"
      title={t("widgets.meetings.create.title")}
      description={t("widgets.meetings.create.zone", { zone: settings.timezone.replaceAll("_", " ") })}
    >
      <form onSubmit={submit} noValidate>
        {errors.form && (
          <p className="form-error" role="alert">
            {errors.form}
          </p>
        )}
        {calendars.isPending ? (
          <Skeleton height={36} width="100%" />
        ) : calendars.isError ? (
          <p className="form-error">
            {t("widgets.meetings.create.calendarsFailed", {
              reason: describeDataError(calendars.error, "suite"),
            })}
          </p>
        ) : writable.length === 0 ? (
          <p className="form-error">{t("widgets.meetings.create.noWritable")}</p>
        ) : (
          <Field label={t("widgets.meetings.create.calendar")} error={errors.calendarId}>
            {(id) => (
              <select id={id} value={calendarId} onChange={(e) => set({ calendarId: e.target.value })}>
                {writable.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <Field label={t("widgets.meetings.create.titleLabel")} error={errors.title}>
          {(id, describedBy) => (
            <input
              id={id}
              value={form.title}
              maxLength={200}
              placeholder={t("widgets.meetings.create.titlePlaceholder")}
              autoFocus
              data-autofocus
              aria-describedby={describedBy}
              aria-invalid={errors.title ? true : undefined}
              onChange={(e) => set({ title: e.target.value })}
            />
          )}
        </Field>
        <Field label={t("widgets.meetings.create.date")} error={errors.date}>
          {(id) => (
            <input id={id} type="date" value={form.date} onChange={(e) => set({ date: e.target.value })} />
          )}
        </Field>
        <div className="field-pair">
          <Field label={t("widgets.meetings.create.starts")} error={errors.start}>
            {(id) => (
              <input
                id={id}
                type="time"
                value={form.start}
                onChange={(e) => set({ start: e.target.value })}
              />
            )}
          </Field>
          <Field label={t("widgets.meetings.create.ends")} error={errors.end}>
            {(id, describedBy) => (
              <input
                id={id}
                type="time"
                value={form.end}
                aria-describedby={describedBy}
                aria-invalid={errors.end ? true : undefined}
                onChange={(e) => set({ end: e.target.value })}
              />
            )}
          </Field>
        </div>
        <Field label={t("widgets.meetings.create.location")}>
          {(id) => (
            <input
              id={id}
              value={form.location}
              maxLength={500}
              onChange={(e) => set({ location: e.target.value })}
            />
          )}
        </Field>
        <label className="checkbox-row">
          <input type="checkbox" checked={form.meet} onChange={(e) => set({ meet: e.target.checked })} />
          {t("widgets.meetings.create.meet")}
        </label>
        <div className="dialog-actions">
          <button type="button" className="button ghost" onClick={onClose}>
            {t("common.cancel")}
          </button>
          <button
            type="submit"
            className="button primary"
            disabled={create.isPending || writable.length === 0}
          >
            {create.isPending ? t("widgets.meetings.create.creating") : t("widgets.meetings.create.submit")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
