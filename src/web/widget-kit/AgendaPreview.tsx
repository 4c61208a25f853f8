import { useTranslation } from "react-i18next";
import { PreviewList } from "./PreviewList";

/** The picker's sample of a day's agenda (Meetings, Calendar): today's events, a colour dot each. */
export function AgendaPreview({
  events,
}: {
  events: readonly (readonly [time: string, title: string, color: string])[];
}) {
  const { t } = useTranslation();
  return (
    <PreviewList
      heading={t("widgets.data.day.today")}
      rows={events.map(([time, title, color]) => ({
        key: title,
        mark: <span className="preview-dot" style={{ background: color }} />,
        text: (
          <>
            {time} {title}
          </>
        ),
      }))}
    />
  );
}
