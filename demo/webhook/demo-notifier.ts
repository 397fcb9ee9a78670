// The sending side: the demo server's Notifier with two webhook channels to the local receiver, one signed with
// the receiver's secret and one with a wrong secret, so both a verified and a rejected delivery can be shown.
import { randomUUID } from 'node:crypto';
import { Notifier, WebhookChannel, newMessage, type Notifiable, type RetryOptions } from 'try-it-console/webhook';
import type { DeliveryLog, DeliveryRecord } from './delivery-log.js';

/** What the page's button asks for. */
export interface NotifyRequest {
  event: string;
  notifiable?: Notifiable;
  data?: Record<string, unknown>;
  failFirst?: boolean;
  wrongSecret?: boolean;
}

/** A notify request the demo cannot send; answered 400. */
export class NotifyRequestError extends Error {
  readonly code = 'ERR_DEMO_NOTIFY_REQUEST';

  constructor(message: string) {
    super(message);
    this.name = 'NotifyRequestError';
  }
}

/**
 * Short waits so a retry shows up on the page within a second; a 401 (wrong signature) is not retried, since
 * sending the same bytes again cannot fix it.
 */
export const DEMO_RETRY: RetryOptions = { attempts: 4, minDelay: 300, maxDelay: 2_000, shouldRetry: (failure) => failure.status !== 401 };

const CHANNEL = 'webhook';
const WRONG_SECRET_CHANNEL = 'webhook-wrong-secret';
const EVENT_NAME = /^[a-z][a-z0-9_.-]{0,63}$/;

export class DemoNotifier {
  readonly #notifier: Notifier;
  readonly #log: DeliveryLog;

  constructor(options: { receiverUrl: string; secret: string; log: DeliveryLog; retry?: RetryOptions }) {
    this.#log = options.log;
    this.#notifier = new Notifier({ retry: options.retry ?? DEMO_RETRY });
    const headers = { 'User-Agent': 'try-it-console-demo' };
    this.#notifier.registerChannel(CHANNEL, new WebhookChannel({ url: options.receiverUrl, secret: options.secret, headers, timeout: 5_000 }));
    this.#notifier.registerChannel(WRONG_SECRET_CHANNEL, new WebhookChannel({ url: options.receiverUrl, secret: `not-${options.secret}`, headers, timeout: 5_000 }));
  }

  /** Starts a delivery and returns its record at once; the log follows its attempts. */
  notify(request: NotifyRequest): DeliveryRecord {
    if (!EVENT_NAME.test(request.event)) throw new NotifyRequestError(`event must be a lowercase name such as "pet.adopted" (got ${JSON.stringify(request.event)}).`);
    const id = randomUUID();
    const notifiable = request.notifiable ?? { type: 'pet', id: 1 };
    const failFirst = request.failFirst === true;
    const wrongSecret = request.wrongSecret === true;
    const record = this.#log.start({ id, event: request.event, notifiable, failFirst, wrongSecret });
    // delivery_id lets the receiver match retries to one delivery (and de-duplicate, as the README advises).
    const data = { ...request.data, delivery_id: id, fail_first: failFirst };
    void this.#notifier
      .send(notifiable, { via: () => [wrongSecret ? WRONG_SECRET_CHANNEL : CHANNEL], toWebhook: () => newMessage().event(request.event).payload(data) })
      .then(
        ([result]) => result && this.#log.finished(id, result),
        (error: unknown) => this.#log.finished(id, { ok: false, attempts: 0, error: { message: String((error as Error)?.message ?? error) } }),
      );
    return record;
  }

  /** Waits briefly for deliveries in flight; ones still retrying after that are reported failed. */
  close(): Promise<void> {
    return this.#notifier.close({ timeout: 1_000 });
  }
}

/** Checks the JSON body of `POST /demo/notify`. */
export function parseNotifyRequest(value: unknown): NotifyRequest {
  const body = value === undefined ? {} : value;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new NotifyRequestError('The body must be a JSON object such as {"event": "pet.adopted", "failFirst": true}.');
  const { event = 'pet.adopted', failFirst = false, wrongSecret = false, petId = 1 } = body as Record<string, unknown>;
  if (typeof event !== 'string') throw new NotifyRequestError('event must be a string.');
  if (typeof failFirst !== 'boolean') throw new NotifyRequestError('failFirst must be true or false.');
  if (typeof wrongSecret !== 'boolean') throw new NotifyRequestError('wrongSecret must be true or false.');
  if (!Number.isInteger(petId)) throw new NotifyRequestError('petId must be a whole number.');
  // The entity is named by the event's first word: `order.placed` is about an order.
  const type = /^[a-z]+(?=\.)/.exec(event)?.[0] ?? 'pet';
  return { event, failFirst, wrongSecret, notifiable: { type, id: petId as number } };
}
