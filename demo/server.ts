// `startDemo`: the four local servers behind `npm start`, wired together. Tests start it on port 0.
//
//   docs site (origin A) ── pages, /dist, /assets, /demo/notify, /demo/deliveries
//   sample API (origin B) ── the "Petstore" the pages document; no CORS headers
//   CORS proxy ── src/proxy, lets pages on origin A read origin B
//   webhook receiver ── verifies what the docs server's Notifier sends
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProxy, type RunningProxy } from 'try-it-console/proxy';
import type { RetryOptions } from 'try-it-console/webhook';
import { checkBuildOutput } from './docs-site/build-output.js';
import { bundleBrowserScripts } from './docs-site/browser-scripts.js';
import { readCodeSample } from './docs-site/code-sample.js';
import { createDocsSite } from './docs-site/docs-site.js';
import { PortInUseError, closedOrigin, listen, otherLocalhostListener, urlHost, type ListeningServer } from './http/listening-server.js';
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
  /**
   * Docs site port; `0` picks a free one. A port given here must be free; a default that is taken (by another
   * program, or a demo already running) is replaced by a free one, listed in `RunningDemo.movedPorts`.
   * @default 8080
   */
  port?: number;
  /** Sample API port (see `port`). @default 8081 */
  apiPort?: number;
  /** Webhook receiver port (see `port`). @default 8082 */
  receiverPort?: number;
  /** CORS proxy port (see `port`). @default 8787 */
  proxyPort?: number;
  /** The demo notifier's retry policy. @default DEMO_RETRY (4 attempts, 300 ms to 2 s apart) */
  retry?: RetryOptions;
}

export type PortName = 'port' | 'apiPort' | 'receiverPort' | 'proxyPort';

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

/** A default port that was taken, and the free one used instead. */
export interface MovedPort {
  /** 'docs site', 'sample API', 'webhook receiver' or 'CORS proxy'. */
  server: string;
  /** The option that sets this server's port. */
  option: PortName;
  wanted: number;
  port: number;
}

export interface RunningDemo {
  urls: DemoUrls;
  /** Default ports that were taken, so the servers listen elsewhere (the banner says so). */
  movedPorts: MovedPort[];
  /** Page origins the proxy serves (the docs site by IP and by `localhost`). */
  docsOrigins: string[];
  /** Stops every server, waiting briefly for webhook deliveries in flight. */
  close(): Promise<void>;
}

const DEMO_DIR = fileURLToPath(new URL('.', import.meta.url));
const DIST_DIR = fileURLToPath(new URL('../dist/', import.meta.url));

export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  const host = options.host ?? '127.0.0.1';
  const ports = portPlan(options);
  checkBuildOutput(DIST_DIR);
  // Read with the bundle it is part of: the page shows the code it runs.
  const [scripts, npmImportSample] = await Promise.all([bundleBrowserScripts(DEMO_DIR), readCodeSample(join(DEMO_DIR, 'npm-import.ts'))]);

  const log = new DeliveryLog();
  const secret = randomBytes(24).toString('hex');
  const started: Array<{ close(): Promise<void> }> = [];
  const movedPorts: MovedPort[] = [];
  let notifier: DemoNotifier | undefined;
  const stopAll = async () => {
    await notifier?.close();
    await Promise.allSettled(started.reverse().map((server) => server.close()));
  };
  // A taken default moves to a free port; a chosen port must be free.
  const listenOn = async <T extends { port: number }>(server: string, option: PortName, start: (port: number) => Promise<T>): Promise<T> => {
    const plan = ports[option];
    if (!plan.givenToAnother) {
      try {
        return await start(plan.port);
      } catch (error) {
        if (plan.chosen || !(error instanceof PortInUseError)) throw error;
      }
    }
    const running = await start(0);
    movedPorts.push({ server, option, wanted: plan.port, port: running.port });
    return running;
  };

  try {
    const receiver = await listenOn('webhook receiver', 'receiverPort', (port) =>
      listen('webhook receiver', createWebhookReceiver({ secret, log }), port, host, 'Pick another with --receiver-port or RECEIVER_PORT.'),
    );
    started.push(receiver);
    const receiverUrl = `${receiver.origin}${RECEIVER_PATH}`;
    const demoNotifier = new DemoNotifier({ receiverUrl, secret, log, ...(options.retry ? { retry: options.retry } : {}) });
    notifier = demoNotifier;

    // A pet created through the console becomes a webhook too, so both areas show up in one flow.
    const onPetCreated = (pet: { id: number; name: string; tag: string }) => {
      demoNotifier.notify({ event: 'pet.created', notifiable: { type: 'pet', id: pet.id }, data: { name: pet.name, tag: pet.tag } });
    };
    // The API's problem types link to their entries on the docs page, whose port is known once it listens.
    let docsUrl = '';
    const api = await listenOn('sample API', 'apiPort', (port) =>
      listen('sample API', createSampleApi({ onPetCreated, docsUrl: () => docsUrl }), port, host, 'Pick another with --api-port or API_PORT.'),
    );
    started.push(api);

    // Filled in once every server listens, so that no server moved to a free port can take the one it names.
    let offlineOrigin = '';
    // The pages name the proxy, which starts after the docs site: it serves the docs site's origins, known once
    // the site listens (its port may be 0 until then).
    let proxyUrl = '';
    const docs: ListeningServer = await listenOn('docs site', 'port', async (port) => {
      const site = await listen(
        'docs site',
        createDocsSite({
          demoDir: DEMO_DIR,
          distDir: DIST_DIR,
          scripts,
          notifier: demoNotifier,
          log,
          values: () => ({ DOCS_ORIGIN: docs.origin, API_ORIGIN: api.origin, OFFLINE_ORIGIN: offlineOrigin, PROXY_URL: proxyUrl, RECEIVER_URL: receiverUrl, DEMO_TOKEN, NPM_IMPORT_SAMPLE: npmImportSample }),
        }),
        port,
        host,
        'Pick another with --port or PORT.',
      );
      // The banner offers http://localhost:<port>/: it must lead here, not to a program on the other loopback address.
      const other = offersLocalhost(host) ? await otherLocalhostListener(site.server) : undefined;
      if (other) {
        await site.close();
        throw new PortInUseError('docs site', site.port, `Another program listens on ${other}, where browsers go first for http://localhost:${site.port}/. Pick another with --port or PORT.`);
      }
      return site;
    });
    started.push(docs);
    docsUrl = `${docs.origin}/`;
    const docsOrigins = [...new Set([docs.origin, `http://localhost:${docs.port}`, `http://127.0.0.1:${docs.port}`])];
    const proxy = await listenOn('CORS proxy', 'proxyPort', (port) => startProxyOrExplain({ port, host, allowPrivate: true, allowOrigins: docsOrigins }));
    started.push(proxy);
    proxyUrl = `http://${urlHost(host)}:${proxy.port}/`;
    offlineOrigin = await closedOrigin(host);

    return { urls: { docs: docsUrl, api: api.origin, proxy: proxyUrl, receiver: receiverUrl }, movedPorts, docsOrigins, close: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Whether the docs site's URLs (the banner's, the proxy's allowed origins) include `http://localhost:<port>/`. */
function offersLocalhost(host: string): boolean {
  return host === '127.0.0.1' || host.toLowerCase() === 'localhost';
}

async function startProxyOrExplain(options: Parameters<typeof startProxy>[0] & { port: number }): Promise<RunningProxy> {
  try {
    return await startProxy(options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError('CORS proxy', options.port, 'Pick another with --proxy-port or PROXY_PORT.', { cause: error });
    throw error;
  }
}

interface PortPlan {
  port: number;
  /** Given in the options: used as is, or the demo does not start. */
  chosen: boolean;
  /** A default that the options give to another server (`port: 8081` takes the sample API's). */
  givenToAnother: boolean;
}

function portPlan(options: DemoOptions): Record<PortName, PortPlan> {
  const names = Object.keys(DEFAULT_PORTS) as PortName[];
  const chosen = new Set(names.map((name) => options[name]).filter((port) => port !== undefined && port !== 0));
  const plan = {} as Record<PortName, PortPlan>;
  for (const name of names) {
    const given = options[name];
    plan[name] = given === undefined ? { port: DEFAULT_PORTS[name], chosen: false, givenToAnother: chosen.has(DEFAULT_PORTS[name]) } : { port: given, chosen: true, givenToAnother: false };
  }
  return plan;
}
