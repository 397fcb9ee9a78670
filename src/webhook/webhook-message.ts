// What a notification hands to the webhook channel: an event name and a data object.

/** The data object of a webhook body; its keys are the caller's. Values must be JSON-serialisable. */
export type WebhookPayload = Record<string, unknown>;

/** Built with `newMessage().event(name).payload(map)`. */
export class WebhookMessage {
  #eventName: string | undefined;
  #data: WebhookPayload = {};

  /** Sets the event name carried in the body's `event` field, e.g. `user.created`. */
  event(name: string): this {
    this.#eventName = name;
    return this;
  }

  /** Sets the body's `data` object. It is serialised when the delivery starts, once. */
  payload(data: WebhookPayload): this {
    this.#data = data;
    return this;
  }

  /** The event name, or `undefined` when `event()` was never called. */
  get eventName(): string | undefined {
    return this.#eventName;
  }

  /** The data object (`{}` until `payload()` is called). */
  get data(): WebhookPayload {
    return this.#data;
  }
}

/** An empty message: `newMessage().event('user.created').payload({ id: 42 })`. */
export function newMessage(): WebhookMessage {
  return new WebhookMessage();
}
