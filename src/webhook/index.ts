// `try-it-console/webhook`: Node only. Signed webhook sending with retries, and verification for receivers.
export { WebhookChannel } from './webhook-channel.js';
export type { WebhookChannelConfig, Notifiable, WebhookBody, PreparedDelivery, AttemptOptions, AttemptOutcome } from './webhook-channel.js';
export { WebhookMessage, newMessage } from './webhook-message.js';
export type { WebhookPayload } from './webhook-message.js';
export { Notifier } from './notifier.js';
export type { NotifierOptions, WebhookNotification, SendOptions, DeliveryResult, AttemptEvent, SentEvent, FailedEvent, ListenerErrorEvent, NotifierEventMap } from './notifier.js';
export { RetryPolicy, parseRetryAfter } from './retry-policy.js';
export type { RetryOptions } from './retry-policy.js';
export { WebhookAttemptError } from './attempt-failure.js';
export type { AttemptFailure, AttemptFailureKind } from './attempt-failure.js';
export { WebhookSigner, signPayload, verifySignature, SIGNATURE_HEADER } from './signature.js';
export type { RawBody, ReceiverSecret } from './signature.js';
export { createWebhookHandler } from './receiver.js';
export type { WebhookReceiverOptions, WebhookReceiverContext, WebhookRequestHandler } from './receiver.js';
export { createWebhookFetchHandler } from './fetch-receiver.js';
export type { WebhookFetchReceiverOptions, WebhookFetchReceiverContext, WebhookFetchHandler } from './fetch-receiver.js';
export type { WebhookVerificationOptions, WebhookRefusal } from './receiver-options.js';
export { TryItError, ConfigError, InvalidArgumentError, WebhookDeliveryError, isTryItError } from '../core/errors.js';
