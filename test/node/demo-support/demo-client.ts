// Shared by the demo tests: small fetch helpers with a deadline, and a bounded poll of the delivery log.
import { setTimeout as sleep } from 'node:timers/promises';
import type { DeliveryRecord } from '../../../demo/webhook/delivery-log.js';

const REQUEST_LIMIT_MS = 10_000;

export function get(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_LIMIT_MS) });
}

export function postJson(url: string, value: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return get(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(value) });
}

/** Every `Access-Control-*` header of a response. */
export function corsHeaders(response: Response): string[] {
  return [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));
}

/** Polls `/demo/deliveries` until `done` holds for the delivery with `id` (or any, without an id); bounded. */
export async function waitForDelivery(docs: string, done: (delivery: DeliveryRecord) => boolean, id?: string): Promise<DeliveryRecord> {
  let last: DeliveryRecord[] = [];
  for (let poll = 0; poll < 100; poll += 1) {
    const response = await get(new URL('/demo/deliveries', docs).href);
    last = ((await response.json()) as { deliveries: DeliveryRecord[] }).deliveries;
    const match = last.find((delivery) => (id === undefined || delivery.id === id) && done(delivery));
    if (match) return match;
    await sleep(100);
  }
  throw new Error(`No delivery${id ? ` ${id}` : ''} reached the expected state within 10 s; last seen: ${JSON.stringify(last, null, 2)}`);
}
