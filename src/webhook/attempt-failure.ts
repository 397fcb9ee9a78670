// Why one attempt at a webhook delivery failed. The retry policy decides from this whether to try again.
import { TryItError } from '../core/errors.js';

/**
 * - `status`: the receiver answered outside 2xx (and not 3xx).
 * - `redirect`: the receiver answered 3xx; redirects are never followed.
 * - `timeout`: no complete answer within the channel's `timeout`.
 * - `network`: connection refused or reset, DNS failure, a TLS handshake that failed (an expired certificate, one
 *   for another host), this machine out of sockets (EMFILE) and the like.
 * - `certificate`: the receiver's TLS certificate is from an issuer this process does not trust (self-signed, a
 *   private CA). Not retried by the default `shouldRetry`: no retry changes who issued it.
 * - `aborted`: the caller's `signal`, or the Notifier's `close()` timeout, aborted the attempt in flight. Never
 *   retried: the retry policy does not see it.
 */
export type AttemptFailureKind = 'status' | 'redirect' | 'timeout' | 'network' | 'certificate' | 'aborted';

/** One failed attempt, with its cause. Becomes the `cause` of the final `WebhookDeliveryError`. */
export class WebhookAttemptError extends TryItError {
  readonly kind: AttemptFailureKind;
  /** HTTP status, when the receiver answered. */
  readonly status: number | undefined;

  constructor(kind: AttemptFailureKind, message: string, details: { status?: number; cause?: unknown } = {}) {
    super(`ERR_WEBHOOK_${kind.toUpperCase()}`, message, { cause: details.cause });
    this.kind = kind;
    this.status = details.status;
  }
}

/** What the retry policy's `shouldRetry` predicate sees. */
export interface AttemptFailure {
  /** The registered channel name. */
  readonly channel: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly kind: AttemptFailureKind;
  /** HTTP status, when the receiver answered. */
  readonly status: number | undefined;
  /** The receiver's `Retry-After`, in milliseconds, when it sent a valid one. */
  readonly retryAfter: number | undefined;
  readonly error: WebhookAttemptError;
}
