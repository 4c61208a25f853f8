import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { JobResult } from "pg-boss";
import type { PushConfig } from "../config.js";
import type { Db } from "../db/client.js";
import { pushSubscriptions } from "../db/schema.js";
import { ProblemError } from "../http/errors.js";
import { type JobQueue, QUEUE_DEFAULTS } from "../jobs/queue.js";
import type { UpstreamFetch } from "../upstream/fetch.js";
import { endpointOrigin } from "./subscriptions.js";
import type { VapidIdentity } from "./vapid.js";

/** The queue of Web Push deliveries: one job per (message, subscription). */
export const PUSH_QUEUE = "push";

/** What the service worker gets (src/web/public/sw.js reads exactly these). */
export interface PushMessage {
  title: string;
  body: string;
  /** The page a click opens. */
  url: string;
  /** Notifications with the same tag replace each other on the device: a re-sent push shows once. */
  tag: string;
}

/** A job names the subscription, not its keys: secrets stay in their table, read at send time. */
export interface PushJob {
  subscriptionId: string;
  message: PushMessage;
  /** How many times a 429 has put this job off (Retry-After); bounded so it cannot go on forever. */
  deferrals?: number;
}

const MAX_DEFERRALS = 5;
/** Retry-After beyond this is not waited for as such: the queue's own backoff takes over. */
const MAX_DEFER_SECONDS = 3600;

/**
 * Queues `message` for every browser `userId` subscribed, on `queue` inside `tx`: the jobs exist
 * if and only if the transaction commits, one per subscription. Returns how many were queued.
 */
export async function enqueuePushes(tx: Db, queue: JobQueue, userId: string, message: PushMessage) {
  const subscriptions = await tx
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
  if (subscriptions.length === 0) return 0;
  await queue.boss.insert(
    PUSH_QUEUE,
    subscriptions.map(({ id }) => ({ data: { subscriptionId: id, message } satisfies PushJob })),
    { db: queue.in(tx) },
  );
  return subscriptions.length;
}

/**
 * The Topic header (RFC 8030 section 5.4): a push service holding an undelivered message with the
 * same topic replaces it, so a retried job does not stack up on an offline device. At most 32
 * characters of the base64url alphabet.
 */
const topicOf = (tag: string) => createHash("sha256").update(tag).digest("base64url").slice(0, 32);

/** web-push's headers as fetch takes them: strings, and no Content-Length (fetch sets it). */
function requestHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = { accept: "*/*" };
  for (const [name, value] of Object.entries(headers))
    if (name.toLowerCase() !== "content-length") out[name.toLowerCase()] = String(value);
  return out;
}

export type Outcome = "sent" | "gone" | "rejected" | { retryAfterSeconds: number };

export interface PushSender {
  send(subscriptionId: string, message: PushMessage): Promise<Outcome>;
}

/**
 * Sends through the upstream layer (one fetch wrapper: deadline, shutdown, address guard), with
 * web-push only building the request: the VAPID JWT and the aes128gcm body. web-push's own
 * sendNotification would use https.request directly, outside our timeouts and the guard that
 * keeps a user-given URL (the endpoint is one) off the server's private network.
 */
export function pushSender(
  db: Db,
  config: PushConfig,
  identity: () => Promise<VapidIdentity>,
  fetch: UpstreamFetch,
  log: FastifyBaseLogger,
): PushSender {
  return {
    async send(subscriptionId, message) {
      const [row] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, subscriptionId));
      if (!row) return "gone";
      const vapid = await identity();
      // Loaded on first send, not at start: most instances idle without it (idle memory budget).
      const { default: webpush } = await import("web-push");
      const service = endpointOrigin(row.endpoint);
      const request = webpush.generateRequestDetails(
        { endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } },
        JSON.stringify(message),
        {
          vapidDetails: vapid,
          TTL: config.ttlSeconds,
          urgency: "high",
          topic: topicOf(message.tag),
          contentEncoding: "aes128gcm",
        },
      );
      const response = await fetch({
        url: request.endpoint,
        service: `the push service ${service}`,
        what: "a notification",
        method: "POST",
        headers: requestHeaders(request.headers),
        body: request.body,
        followRedirects: false,
      });
      const status = response.status;
      if (status >= 200 && status < 300) return "sent";
      if (status === 404 || status === 410) {
        // The browser unsubscribed or the subscription expired: it will never work again.
        await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscriptionId));
        log.info({ service, status }, "push subscription gone; removed");
        return "gone";
      }
      if (status === 429) {
        const seconds = Number(response.headers.get("retry-after"));
        return { retryAfterSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : 60 };
      }
      if (status >= 500 || status === 408)
        throw new ProblemError(502, "upstream_failed", `The push service ${service} answered ${status}`);
      // 400, 401, 403, 413: this message or this subscription (made with another key) is refused
      // for good; retrying would get the same answer.
      log.warn({ service, status }, "the push service refused a notification");
      return "rejected";
    },
  };
}

export const PUSH_WORK = {
  batchSize: 10,
  pollingIntervalSeconds: 0.5,
  perJobResults: true,
} as const;

/** Creates the push queue (idempotent) and works it: each job settled on its own. */
export const pushWorker = (sender: PushSender, log: FastifyBaseLogger) => async (queue: JobQueue) => {
  if (!(await queue.boss.getQueue(PUSH_QUEUE))) await queue.boss.createQueue(PUSH_QUEUE, QUEUE_DEFAULTS);
  await queue.boss.work<PushJob>(
    PUSH_QUEUE,
    PUSH_WORK,
    async (jobs): Promise<JobResult[]> =>
      Promise.all(
        jobs.map(async (job): Promise<JobResult> => {
          try {
            const outcome = await sender.send(job.data.subscriptionId, job.data.message);
            if (typeof outcome === "object") {
              const deferrals = (job.data.deferrals ?? 0) + 1;
              if (deferrals > MAX_DEFERRALS || outcome.retryAfterSeconds > MAX_DEFER_SECONDS)
                return { id: job.id, status: "failed", output: { error: "rate limited" } };
              // Honour Retry-After: the same message again after that long, as a job of its own.
              await queue.boss.send(PUSH_QUEUE, { ...job.data, deferrals } satisfies PushJob, {
                startAfter: Math.ceil(outcome.retryAfterSeconds),
              });
            }
            return { id: job.id, status: "completed", output: { outcome } };
          } catch (error) {
            // Network failures, timeouts, 5xx: failed, so pg-boss retries with backoff.
            const detail = error instanceof Error ? error.message : String(error);
            log.warn({ err: detail }, "push delivery failed; it will be retried");
            return { id: job.id, status: "failed", output: { error: detail } };
          }
        }),
      ),
  );
};
