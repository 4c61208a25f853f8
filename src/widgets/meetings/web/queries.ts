import { dataApi, dataKeys } from "../../../web/lib/data-api";
import { retryData } from "../../../web/widget-kit/data/useWidgetData";

/** The user's calendars: colours for the list, choices for settings and the create dialog. */
export const calendarsQuery = {
  queryKey: [...dataKeys.provider("suite"), "calendars"],
  queryFn: dataApi.calendar.calendars,
  staleTime: 10 * 60_000,
  retry: retryData,
};
