// The webhook panel on the index page: the button asks the demo server to send a notification; the table shows
// each delivery as the sender and the receiver saw it. Everything is written as text, never as HTML.
import type { DeliveryRecord } from './webhook/delivery-log.js';

const FAST_POLL = 400;
const SLOW_POLL = 2_500;

const form = document.querySelector<HTMLFormElement>('#notify-form');
const status = document.querySelector<HTMLElement>('#notify-status');
const body = document.querySelector<HTMLTableSectionElement>('#deliveries tbody');
let timer: ReturnType<typeof setTimeout> | undefined;
const COLUMNS = [...document.querySelectorAll('#deliveries thead th')].map((heading) => heading.textContent!.trim());

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function badge(text: string, tone: 'ok' | 'warn' | 'bad'): HTMLElement {
  return element('span', text, `badge ${tone}`);
}

function row(delivery: DeliveryRecord): HTMLTableRowElement {
  const tr = element('tr');
  const event = element('td');
  event.append(element('code', delivery.event), ` ${delivery.notifiable.type} #${delivery.notifiable.id}`);
  const requested = element('td', new Date(delivery.requestedAt).toLocaleTimeString());
  const sent = delivery.sender.attempts ?? '…';
  const attempts = element('td', `${sent} sent / ${delivery.attemptsSeen} received`);
  const answers = element('td');
  const list = element('ul', undefined, 'attempt-list');
  for (const attempt of delivery.received) {
    const answer = element('li', `${new Date(attempt.at).toLocaleTimeString()} → ${attempt.status}`);
    if (attempt.refusal) answer.append(element('div', attempt.refusal, 'reason'));
    list.append(answer);
  }
  answers.append(delivery.received.length > 0 ? list : '—');
  const signature = element('td');
  signature.append(delivery.attemptsSeen === 0 ? '—' : delivery.verified ? badge('verified', 'ok') : badge('rejected', 'bad'));
  const result = element('td');
  if (delivery.sender.state === 'sending') result.append(badge('sending…', 'warn'));
  else if (delivery.sender.state === 'delivered') result.append(badge(`delivered (${delivery.sender.status})`, 'ok'));
  else {
    result.append(badge('failed', 'bad'));
    if (delivery.sender.error) result.append(element('div', delivery.sender.error, 'reason'));
  }
  const cells = [event, requested, attempts, answers, signature, result];
  // On a phone each row is a card, each cell under its column's name (demo.css).
  cells.forEach((cell, index) => (cell.dataset.label = COLUMNS[index]));
  tr.append(...cells);
  return tr;
}

const NOT_ANSWERING = 'The demo server is not answering; is `npm start` still running?';

// Deliveries this page asked for and whose outcome it has not announced yet. Each is announced once, when a poll
// first sees it ended, then forgotten: later polls redraw the table but leave the status line (a polite live
// region) alone, so a screen reader hears each outcome once.
const awaitingOutcome = new Set<string>();

/** What the status line says when a delivery ended, e.g. "pet.adopted delivered after 2 attempts (204); signature verified." */
function outcome(delivery: DeliveryRecord): string {
  const attempts = delivery.sender.attempts ?? delivery.attemptsSeen;
  const answered = delivery.sender.status === undefined ? '' : ` (${delivery.sender.status})`;
  const signature = delivery.attemptsSeen === 0 ? 'the receiver saw no attempt' : delivery.verified ? 'signature verified' : 'signature rejected';
  return `${delivery.event} ${delivery.sender.state} after ${attempts} attempt${attempts === 1 ? '' : 's'}${answered}; ${signature}.`;
}

function announceOutcomes(deliveries: DeliveryRecord[]): void {
  // Oldest first, in one text: two set in the same task would be read as the last one only.
  const ended = deliveries.filter((delivery) => awaitingOutcome.has(delivery.id) && delivery.sender.state !== 'sending').reverse();
  if (ended.length === 0) return;
  for (const delivery of ended) awaitingOutcome.delete(delivery.id);
  if (status) status.textContent = ended.map(outcome).join(' ');
}

// One poll at a time: a send, a visibility change or the timer asking while a poll is in flight get one more
// poll after it, instead of each starting a polling loop of its own.
let polling = false;
let pollAgain = false;

async function refresh(): Promise<void> {
  pollAgain = true;
  if (polling) return;
  polling = true;
  clearTimeout(timer);
  let busy = false;
  try {
    while (pollAgain) {
      pollAgain = false;
      busy = await poll();
    }
  } finally {
    polling = false;
  }
  // Quick while something is in flight, slow otherwise (a pet created in the console also sends a webhook).
  if (document.visibilityState === 'visible') timer = setTimeout(() => void refresh(), busy ? FAST_POLL : SLOW_POLL);
}

/** Shows the delivery log; true while a delivery is still being sent. */
async function poll(): Promise<boolean> {
  let deliveries: DeliveryRecord[];
  try {
    const response = await fetch('/demo/deliveries');
    deliveries = ((await response.json()) as { deliveries: DeliveryRecord[] }).deliveries;
  } catch {
    if (status) status.textContent = NOT_ANSWERING;
    return false;
  }
  if (status?.textContent === NOT_ANSWERING) status.textContent = '';
  announceOutcomes(deliveries);
  if (body) {
    if (deliveries.length === 0) {
      const empty = element('tr');
      const cell = element('td', 'No deliveries yet.');
      cell.colSpan = 6;
      empty.append(cell);
      body.replaceChildren(empty);
    } else body.replaceChildren(...deliveries.map(row));
  }
  return deliveries.some((delivery) => delivery.sender.state === 'sending');
}

form?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const scenario = data.get('scenario');
  const request = { event: String(data.get('event')), failFirst: scenario === 'failFirst', wrongSecret: scenario === 'wrongSecret' };
  if (status) status.textContent = `Sending ${request.event}…`;
  try {
    const response = await fetch('/demo/notify', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(request) });
    const answer = (await response.json()) as DeliveryRecord | { error: { message: string } };
    if (status) status.textContent = 'error' in answer ? `Not sent: ${answer.error.message}` : `${request.event} handed to the notifier: the first row below follows its delivery.`;
    if (!('error' in answer)) awaitingOutcome.add(answer.id);
  } catch {
    if (status) status.textContent = NOT_ANSWERING;
  }
  await refresh();
});

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') void refresh();
});
void refresh();
