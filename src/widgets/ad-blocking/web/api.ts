import { request } from "../../../web/lib/api";
import type { AdBlockingActionResult, PauseMinutes } from "../contract";

type ActionAnswer = { detail: string; result: AdBlockingActionResult };

/** POST /api/widgets/action: blocking off for `minutes`, back on by itself afterwards. */
export const pauseBlocking = (widgetId: string, minutes: PauseMinutes) =>
  request<ActionAnswer>("POST", "/api/widgets/action", { id: widgetId, action: "pause", input: { minutes } });

/** POST /api/widgets/action: blocking on again now. */
export const resumeBlocking = (widgetId: string) =>
  request<ActionAnswer>("POST", "/api/widgets/action", { id: widgetId, action: "resume" });
