// The local receiver: a plain Node server whose POST /webhooks verifies each delivery with the package's own
// `createWebhookHandler`, and tells the delivery log what it saw, verified or not.
import type { IncomingMessage, RequestListener } from 'node:http';
import { createWebhookHandler } from 'try-it-console/webhook';
import { RequestBodyError, readBody } from '../http/request-body.js';
import { sendError } from '../http/responses.js';
import type { DeliveryLog } from './delivery-log.js';

export const RECEIVER_PATH = '/webhooks';

const MAX_BODY = 1024 * 1024;

/** Thrown on purpose for a first attempt marked `fail_first`: the handler answers 500 and the sender retries. */
class SimulatedFailure extends Error {
  readonly code = 'ERR_DEMO_SIMULATED_FAILURE';
}

export function createWebhookReceiver(options: { secret: string; log: DeliveryLog }): RequestListener {
  const { log } = options;
  // Requests whose signature matched: the handler calls onEvent only for those.
  const verified = new WeakSet<IncomingMessage>();
  // Why a request was not accepted: what the handler's onRefused hook told the operator, or the simulated failure.
  const refusals = new WeakMap<IncomingMessage, string>();
  const handler = createWebhookHandler({
    secret: options.secret,
    onRefused: ({ reason }, { request }) => void refusals.set(request, reason),
    // The failure on purpose is shown on the page; anything else is a bug of the demo, for its terminal.
    onError: (error) => {
      if (!(error instanceof SimulatedFailure)) console.error('demo webhook receiver:', error);
    },
    onEvent: (event, { request }) => {
      verified.add(request);
      const id = String(event.data.delivery_id ?? '');
      if (event.data.fail_first === true && log.attemptsSeen(id) === 0) {
        // Shown on the page: a bare 500 would read as the demo being broken.
        const failure = new SimulatedFailure('failed on purpose: the demo receiver fails the first attempt when asked to, so the notifier retries');
        refusals.set(request, failure.message);
        throw failure;
      }
    },
  });

  return (request, response) => {
    const path = new URL(request.url ?? '/', 'http://receiver.invalid').pathname;
    if (path !== RECEIVER_PATH) return sendError(response, 404, 'not_found', `Deliveries go to POST ${RECEIVER_PATH}.`);
    if (request.method !== 'POST') return sendError(response, 405, 'method_not_allowed', 'Use POST.', { Allow: 'POST' });
    void receive(request).then(
      async (rawBody) => {
        const id = deliveryIdOf(rawBody);
        response.once('finish', () => {
          if (id) log.received(id, { at: new Date().toISOString(), status: response.statusCode, verified: verified.has(request), refusal: refusals.get(request) });
        });
        // Handing over the raw bytes the way express.raw() does: the handler verifies exactly these.
        await handler(Object.assign(request, { body: rawBody }), response);
      },
      (error: unknown) => {
        const status = error instanceof RequestBodyError ? error.status : 400;
        if (!response.headersSent) sendError(response, status, 'unreadable_body', (error as Error).message);
      },
    );
  };
}

function receive(request: IncomingMessage): Promise<Buffer> {
  return readBody(request, MAX_BODY);
}

/** Which delivery a request claims to be, read before verification for display only; it proves nothing. */
function deliveryIdOf(rawBody: Buffer): string | undefined {
  try {
    const id = (JSON.parse(rawBody.toString('utf8')) as { data?: { delivery_id?: unknown } }).data?.delivery_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
