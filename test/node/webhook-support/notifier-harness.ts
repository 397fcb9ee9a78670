// What the notifier tests share: a notifier with its channels and its events recorded, the notification they send,
// and the bounds their waits use.
import {
  Notifier,
  WebhookChannel,
  newMessage,
  type AttemptEvent,
  type FailedEvent,
  type ListenerErrorEvent,
  type NotifierOptions,
  type SentEvent,
  type WebhookChannelConfig,
  type WebhookNotification,
} from '../../../src/webhook/index.js';

/** Far above anything expected, far below the channel's timeout and the retry delays: a wait that would hang fails. */
export const GUARD = 15_000;
/** A channel timeout (or retry delay) that no test waits for. */
export const SLOW = 60_000;

export const invoice = { type: 'invoice', id: 7 };
export const invoicePaid: WebhookNotification = { via: () => ['webhook'], toWebhook: () => newMessage().event('invoice.paid').payload({ idempotency_key: 'k1' }) };

export interface RecordedEvents {
  attempt: AttemptEvent[];
  sent: SentEvent[];
  failed: FailedEvent[];
  /** Only with `recordListenerErrors`. */
  error: ListenerErrorEvent[];
}

export interface HarnessOptions {
  /** Fields every channel's config starts from; its own fields win. */
  channelDefaults?: Partial<WebhookChannelConfig>;
  /**
   * Adds an `error` listener. Off by default: with one, what a listener throws is no longer an uncaught exception,
   * so a test could pass over a bug it would otherwise show.
   */
  recordListenerErrors?: boolean;
}

/** A notifier with `channels` registered (name to config) and its `attempt`, `sent` and `failed` events recorded. */
export function recordingNotifier(channels: Record<string, WebhookChannelConfig>, options: NotifierOptions, { channelDefaults = {}, recordListenerErrors = false }: HarnessOptions = {}) {
  const notifier = new Notifier(options);
  for (const [name, config] of Object.entries(channels)) notifier.registerChannel(name, new WebhookChannel({ ...channelDefaults, ...config }));
  const events: RecordedEvents = { attempt: [], sent: [], failed: [], error: [] };
  notifier.on('attempt', (event) => events.attempt.push(event));
  notifier.on('sent', (event) => events.sent.push(event));
  notifier.on('failed', (event) => events.failed.push(event));
  if (recordListenerErrors) notifier.on('error', (event) => events.error.push(event));
  return { notifier, events };
}
