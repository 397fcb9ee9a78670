// `startDemo`: the four local servers behind `npm start`, wired together. Tests start it on port 0.
//
//   docs site (origin A) ── pages, /dist, /assets, /demo/notify, /demo/deliveries
//   sample API (origin B) ── the "Petstore" the pages document; no CORS headers
//   CORS proxy ── src/proxy, lets pages on origin A read origin B
//   webhook receiver ── verifies what the docs server's Notifier sends
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startProxy, type RunningProxy } from 'try-it-console/proxy';
import type { RetryOptions } from 'try-it-console/webhook';
import { checkBuildOutput } from './docs-site/build-output.js';
import { bundleBrowserScripts } from './docs-site/browser-scripts.js';
import { createDocsSite } from './docs-site/docs-site.js';
import { PortInUseError, closedOrigin, listen, urlHost, type ListeningServer } from './http/listening-server.js';
import { DEMO_TOKEN, createSampleApi } from './sample-api/sample-api.js';
import { DeliveryLog } from './webhook/delivery-log.js';
import { DemoNotifier } from './webhook/demo-notifier.js';
import { RECEIVER_PATH, createWebhookReceiver } from './webhook/webhook-receiver.js';

export interface DemoOptions {
  /**
   * Address every server listens on. Loopback keeps the demo (and its private-address proxy) off the network.
   * @default '127.0.0.1'
   */
  host?: string;
  /** Docs site port; `0` picks a free one. @default 8080 */
  port?: number;
  /** Sample API port. @default 8081 */
  apiPort?: number;
  /** Webhook receiver port. @default 8082 */
  receiverPort?: number;
  /** CORS proxy port. @default 8787 */
  proxyPort?: number;
  /** The demo notifier's retry policy. @default DEMO_RETRY (4 attempts, 300 ms to 2 s apart) */
  retry?: RetryOptions;
}

type PortName = 'port' | 'apiPort' | 'receiverPort' | 'proxyPort';

export const DEFAULT_PORTS: Readonly<Record<PortName, number>> = { port: 8080, apiPort: 8081, receiverPort: 8082, proxyPort: 8787 };

export interface DemoUrls {
  /** The docs site, e.g. `http://127.0.0.1:8080/`. */
  docs: string;
  /** The sample API's base URL, no trailing slash: the pages' `base_url`. */
  api: string;
  /** The CORS proxy in prefix style, e.g. `http://127.0.0.1:8787/`: the pages' `corsProxy`. */
  proxy: string;
  /** Where webhooks are delivered. */
  receiver: string;
}

export interface RunningDemo {
  urls: DemoUrls;
  /** Page origins the proxy serves (the docs site by IP and by `localhost`). */
  docsOrigins: string[];
  /** Stops every server, waiting briefly for webhook deliveries in flight. */
  close(): Promise<void>;
}

const DEMO_DIR = fileURLToPath(new URL('.', import.meta.url));
const DIST_DIR = fileURLToPath(new URL('../dist/', import.meta.url));

export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  const host = options.host ?? '127.0.0.1';
  const ports = { ...DEFAULT_PORTS, ...definedOnly(options) };
  checkBuildOutput(DIST_DIR);
  const scripts = await bundleBrowserScripts(DEMO_DIR);

  const log = new DeliveryLog();
  const secret = randomBytes(24).toString('hex');
  const started: Array<{ close(): Promise<void> }> = [];
  let notifier: DemoNotifier | undefined;
  const stopAll = async () => {
    await notifier?.close();
    await Promise.allSettled(started.reverse().map((server) => server.close()));
  };

  try {
    const receiver = await listen('webhook receiver', createWebhookReceiver({ secret, log }), ports.receiverPort, host, 'Pick another with --receiver-port or RECEIVER_PORT.');
    started.push(receiver);
    const receiverUrl = `${receiver.origin}${RECEIVER_PATH}`;
    const demoNotifier = new DemoNotifier({ receiverUrl, secret, log, ...(options.retry ? { retry: options.retry } : {}) });
    notifier = demoNotifier;

    // A pet created through the console becomes a webhook too, so both areas show up in one flow.
    const onPetCreated = (pet: { id: number; name: string; tag: string }) => {
      demoNotifier.notify({ event: 'pet.created', notifiable: { type: 'pet', id: pet.id }, data: { name: pet.name, tag: pet.tag } });
    };
    const api = await listen('sample API', createSampleApi({ onPetCreated }), ports.apiPort, host, 'Pick another with --api-port or API_PORT.');
    started.push(api);

    const offlineOrigin = await closedOrigin(host);
    // The pages name the proxy, which starts after the docs site: it serves the docs site's origins, known once
    // the site listens (its port may be 0 until then).
    let proxyUrl = '';
    const docs: ListeningServer = await listen(
      'docs site',
      createDocsSite({
        demoDir: DEMO_DIR,
        distDir: DIST_DIR,
        scripts,
        notifier: demoNotifier,
        log,
        values: () => ({ DOCS_ORIGIN: docs.origin, API_ORIGIN: api.origin, OFFLINE_ORIGIN: offlineOrigin, PROXY_URL: proxyUrl, RECEIVER_URL: receiverUrl, DEMO_TOKEN }),
      }),
      ports.port,
      host,
      'Pick another with --port or PORT.',
    );
    started.push(docs);
    const docsOrigins = [...new Set([docs.origin, `http://localhost:${docs.port}`, `http://127.0.0.1:${docs.port}`])];
    const proxy = await startProxyOrExplain({ port: ports.proxyPort, host, allowPrivate: true, allowOrigins: docsOrigins });
    started.push(proxy);
    proxyUrl = `http://${urlHost(host)}:${proxy.port}/`;

    return { urls: { docs: `${docs.origin}/`, api: api.origin, proxy: proxyUrl, receiver: receiverUrl }, docsOrigins, close: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

async function startProxyOrExplain(options: Parameters<typeof startProxy>[0] & { port: number }): Promise<RunningProxy> {
  try {
    return await startProxy(options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError('CORS proxy', options.port, 'Pick another with --proxy-port or PROXY_PORT.', { cause: error });
    throw error;
  }
}

function definedOnly(options: DemoOptions): Partial<Record<PortName, number>> {
  const ports: Partial<Record<PortName, number>> = {};
  for (const key of Object.keys(DEFAULT_PORTS) as PortName[]) {
    if (options[key] !== undefined) ports[key] = options[key];
  }
  return ports;
}
