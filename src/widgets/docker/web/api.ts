import { request } from "../../../web/lib/api";
import type { DockerAction, DockerActionResult } from "../contract";

/** POST /api/widgets/action: start, stop or restart one of the widget's containers. */
export const runDockerAction = (widgetId: string, action: DockerAction, containerId: string) =>
  request<{ detail: string; result: DockerActionResult }>("POST", "/api/widgets/action", {
    id: widgetId,
    action,
    input: { containerId },
  });
