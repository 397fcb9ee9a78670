// What the webhook panel shows: each delivery the demo started, as the sender saw it and as the receiver saw it.
import type { Notifiable } from 'try-it-console/webhook';

/** One request that reached the receiver. */
export interface ReceivedAttempt {
  /** ISO 8601 time the receiver answered. */
  at: string;
  /** What the receiver answered: 204 accepted, 401 bad signature, 500 simulated failure. */
  status: number;
  /** Whether the X-Signature header matched the raw body. */
  verified: boolean;
  /** Why the receiver did not accept it: its `onRefused` reason, or the demo's failure on purpose (a 500). */
  refusal?: string | undefined;
}

export interface DeliveryRecord {
  /** The `delivery_id` inside the webhook's data, so the receiver can tell which delivery an attempt belongs to. */
  id: string;
  event: string;
  notifiable: Notifiable;
  /** ISO 8601 time the delivery was asked for. */
  requestedAt: string;
  /** The receiver answers the first attempt with 500, so the notifier retries. */
  failFirst: boolean;
  /** Signed with a secret the receiver does not know, so verification fails. */
  wrongSecret: boolean;
  sender: {
    state: 'sending' | 'delivered' | 'failed';
    /** Attempts the notifier made; known once the delivery ended. */
    attempts?: number;
    status?: number;
    error?: string;
  };
  received: ReceivedAttempt[];
  /** `received.length`. */
  attemptsSeen: number;
  /** Whether any attempt passed signature verification. */
  verified: boolean;
}

export type NewDelivery = Pick<DeliveryRecord, 'id' | 'event' | 'notifiable' | 'failFirst' | 'wrongSecret'>;

// Enough for a demo session; older deliveries fall off so a loop of clicks cannot grow memory.
const MAX_RECORDS = 50;

export class DeliveryLog {
  readonly #records = new Map<string, DeliveryRecord>();

  start(delivery: NewDelivery): DeliveryRecord {
    if (this.#records.size >= MAX_RECORDS) this.#records.delete(this.#records.keys().next().value as string);
    const record: DeliveryRecord = { ...delivery, requestedAt: new Date().toISOString(), sender: { state: 'sending' }, received: [], attemptsSeen: 0, verified: false };
    this.#records.set(record.id, record);
    return structuredClone(record);
  }

  /** Records an attempt the receiver answered. Ids the demo did not start are ignored. */
  received(id: string, attempt: ReceivedAttempt): void {
    const record = this.#records.get(id);
    if (!record) return;
    record.received.push(attempt);
    record.attemptsSeen = record.received.length;
    record.verified ||= attempt.verified;
  }

  attemptsSeen(id: string): number {
    return this.#records.get(id)?.attemptsSeen ?? 0;
  }

  /** Records how the sender's delivery ended (a `DeliveryResult` fits). */
  finished(id: string, result: { ok: boolean; attempts: number; status?: number; error?: { message: string } }): void {
    const record = this.#records.get(id);
    if (!record) return;
    record.sender = { state: result.ok ? 'delivered' : 'failed', attempts: result.attempts, ...(result.status === undefined ? {} : { status: result.status }), ...(result.error ? { error: result.error.message } : {}) };
  }

  get(id: string): DeliveryRecord | undefined {
    const record = this.#records.get(id);
    return record && structuredClone(record);
  }

  /** Newest first, as copies. */
  list(): DeliveryRecord[] {
    return [...this.#records.values()].reverse().map((record) => structuredClone(record));
  }
}
