import { upstreamFailed } from "../../server/http/errors.js";
import { answered, defineIntegrationServer } from "../../server/integrations/kit.js";

/** A feed behind a sign-in takes HTTP Basic; a secret address needs nothing. */
export default defineIntegrationServer({
  headers: ({ username, password }): Record<string, string> =>
    username || password
      ? { authorization: `Basic ${Buffer.from(`${username ?? ""}:${password ?? ""}`).toString("base64")}` }
      : {},
  async test(call) {
    const { text } = answered(
      await call({ what: "the calendar", headers: { accept: "text/calendar" } }),
      "The feed",
    );
    if (!/^\s*BEGIN:VCALENDAR/i.test(text))
      throw upstreamFailed("The address answered, but not with an iCal calendar");
    const events = text.match(/^BEGIN:VEVENT/gim)?.length ?? 0;
    const name = /^X-WR-CALNAME:(.*)$/im.exec(text)?.[1]?.trim();
    return `${name ? `${name}: ` : ""}a calendar of ${events} event${events === 1 ? "" : "s"}`;
  },
});
