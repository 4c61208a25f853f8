import { unavailable } from "../http/errors.js";
import type { Jobs } from "../jobs/jobs.js";
import type { JobQueue } from "../jobs/queue.js";
import type { VapidIdentity } from "./vapid.js";

/** What the push routes need beyond the app context: the VAPID identity and the job queue. */
export interface PushService {
  identity(): Promise<VapidIdentity>;
  /** The shared queue, started if it is not yet (the embedded default starts it on demand). */
  queue(): Promise<JobQueue>;
}

export function pushService(identity: () => Promise<VapidIdentity>, jobs: Jobs): PushService {
  return {
    identity,
    queue: () =>
      jobs.ensure().catch(() => {
        throw unavailable("The job queue is not running, so pushes cannot be sent; try again", 5);
      }),
  };
}
