import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiError, describeError } from "../../lib/api";
import type { AppSettings } from "../../lib/app-settings";
import { dataApi, dataKeys, type NewEvent } from "../../lib/data-api";
import { Dialog } from "../../ui/Dialog";
import { Field } from "../../ui/fields";
import { Skeleton } from "../../ui/States";
import { useToasts } from "../../ui/Toasts";
import { zonedTimeToUtc } from "../data/format";
import { defaultEventTimes, validateEvent } from "./logic";
import { calendarsQuery } from "./queries";

export default function CreateEventDialog({ settings, onClose }: { settings: AppSettings; onClose(): void }) {
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
      toasts.show({ tone: "success", message: `“${event.title}” is in your calendar` });
      onClose();
    },
    onError: (error) =>
      setErrors({
        form:
          error instanceof ApiError && error.status === 403
            ? "You can't add events to that calendar."
            : error instanceof ApiError
              ? (Object.values(error.fieldErrors())[0] ?? describeError(error))
              : describeError(error),
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
      title="New event"
      description={`Times in ${settings.timezone.replaceAll("_", " ")}`}
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
          <p className="form-error">Your calendars didn't load: {describeError(calendars.error)}</p>
        ) : writable.length === 0 ? (
          <p className="form-error">None of your calendars accepts new events.</p>
        ) : (
          <Field label="Calendar" error={errors.calendarId}>
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
        <Field label="Title" error={errors.title}>
          {(id, describedBy) => (
            <input
              id={id}
              value={form.title}
              maxLength={200}
              placeholder="Team sync"
              autoFocus
              data-autofocus
              aria-describedby={describedBy}
              aria-invalid={errors.title ? true : undefined}
              onChange={(e) => set({ title: e.target.value })}
            />
          )}
        </Field>
        <Field label="Date" error={errors.date}>
          {(id) => (
            <input id={id} type="date" value={form.date} onChange={(e) => set({ date: e.target.value })} />
          )}
        </Field>
        <div className="field-pair">
          <Field label="Starts" error={errors.start}>
            {(id) => (
              <input
                id={id}
                type="time"
                value={form.start}
                onChange={(e) => set({ start: e.target.value })}
              />
            )}
          </Field>
          <Field label="Ends" error={errors.end}>
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
        <Field label="Location (optional)">
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
          Add a Google Meet video link
        </label>
        <div className="dialog-actions">
          <button type="button" className="button ghost" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="button primary"
            disabled={create.isPending || writable.length === 0}
          >
            {create.isPending ? "Creating…" : "Create event"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
