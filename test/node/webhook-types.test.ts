// The webhook API as a TypeScript user compiles it: the README's examples under the strictest common settings, and
// wrong uses that must be compile errors rather than runtime ConfigErrors.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT, tscOutput } from './consumer-support/consumer-project.js';

const webhook = JSON.stringify(join(ROOT, 'src/webhook/index.js'));

/**
 * tsc's diagnostics for `source` alone (the package's own files are someone else's concern here). `lib` without DOM is
 * a Node-only server's, where Request and Response come from @types/node.
 */
function compile(source: string, lib = ['ES2022', 'DOM']): string[] {
  const project = mkdtempSync(join(tmpdir(), 'webhook-types-'));
  try {
    writeFileSync(join(project, 'user.ts'), source);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib, types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')], strict: true, exactOptionalPropertyTypes: true, noEmit: true, skipLibCheck: true,
      },
      files: ['user.ts'],
    }));
    return tscOutput(project).split('\n').filter((line) => line.startsWith('user.ts'));
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

describe('webhook types', () => {
  it('compile the README examples with exactOptionalPropertyTypes, and refuse wrong uses', () => {
    const diagnostics = compile(`
      import { createServer } from 'node:http';
      import { Notifier, WebhookChannel, createWebhookHandler, newMessage } from ${webhook};
      const env: Record<string, string | undefined> = {};
      const settings: { attempts?: number | undefined; maxAge?: number | undefined; timeout?: number | undefined } = {};
      // Optional fields take undefined, as the runtime does: a value read from the environment or a config file. The
      // channel's secret too, so that the README's example compiles, though the runtime refuses it when the variable is unset.
      const notifier = new Notifier({ retry: { attempts: settings.attempts, shouldRetry: (failure) => failure.status !== 410 } });
      notifier.registerChannel('webhook', new WebhookChannel({ url: 'https://hooks.example.com/in', secret: env.WEBHOOK_SECRET, timeout: settings.timeout }));
      const signal: AbortSignal | undefined = undefined;
      void notifier.send({ type: 'user', id: 42 }, { via: () => ['webhook'], toWebhook: () => newMessage().event('user.created').payload({ a: 1 }) }, { signal });
      void notifier.close({ timeout: settings.timeout });
      createServer(createWebhookHandler({ secret: 'whsec', maxAge: settings.maxAge, onRefused: undefined, onEvent: (event) => void event.data }));
      // @ts-expect-error a misspelt field
      new WebhookChannel({ url: 'https://hooks.example.com/in', secrett: 'x' });
      // @ts-expect-error the URL where { url } belongs
      new WebhookChannel('https://hooks.example.com/in');
      // @ts-expect-error a payload that is not an object
      newMessage().payload([1, 2]);
      // @ts-expect-error a notifiable without an id
      void notifier.send({ type: 'user' }, { via: () => ['webhook'], toWebhook: () => newMessage() });
      // @ts-expect-error an async shouldRetry
      new Notifier({ retry: { shouldRetry: async () => true } });
      // @ts-expect-error a misspelt handler option
      createWebhookHandler({ secret: 'whsec', onEvent: () => {}, maxage: 600_000 });
      // @ts-expect-error an unknown event name
      notifier.on('sen', () => {});
    `);
    assert.deepEqual(diagnostics, []);
  });

  it("compile the Node handler on node:http2 servers and node:https, as the runtime takes them, and refuse a Fetch API Request", () => {
    const diagnostics = compile(`
      import { createServer as createHttpsServer } from 'node:https';
      import { createSecureServer, createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
      import { createWebhookHandler, type WebhookRequestHandler } from ${webhook};
      const handler: WebhookRequestHandler = createWebhookHandler({ secret: 'whsec', onEvent: (event, { request, response }) => {
        // The context's request and response, as callbacks written for http.createServer use them.
        void [event.event, request.headers['x-forwarded-for'], request.socket.remoteAddress];
        response.writeHead(202).end();
      } });
      createHttp2Server(handler);
      createSecureServer({ allowHTTP1: true }, handler);
      createHttpsServer(handler);
      createHttp2Server((request: Http2ServerRequest, response: Http2ServerResponse) => void handler(request, response));
      // @ts-expect-error a Fetch API Request, which createWebhookFetchHandler takes
      void handler(new Request('https://example.com/hooks'), {} as Http2ServerResponse);
    `);
    assert.deepEqual(diagnostics, []);
  });

  // Next.js route handlers, Hono, Bun and Deno, with the DOM library (as Next.js projects have) and without (a Node
  // server such as Hono's, where Request and Response are @types/node's).
  for (const lib of [['ES2022', 'DOM'], ['ES2022']]) {
    it(`compile the Fetch handler's uses, and refuse wrong ones, with lib ${JSON.stringify(lib)}`, () => {
      const diagnostics = compile(`
        import type { IncomingMessage } from 'node:http';
        import { createWebhookFetchHandler, type WebhookFetchHandler, type WebhookFetchReceiverOptions, type WebhookRefusal, type WebhookVerificationOptions } from ${webhook};
        const env: Record<string, string | undefined> = {};
        const settings: { maxAge?: number | undefined; maxBodySize?: number | undefined } = {};
        // Next.js: export const POST = createWebhookFetchHandler({ … })
        export const POST = createWebhookFetchHandler<{ email: string }>({
          secret: [env.WEBHOOK_SECRET!, env.WEBHOOK_SECRET_OLD!],
          maxAge: settings.maxAge,
          maxBodySize: settings.maxBodySize,
          onEvent: async (event, { request, rawBody }) => {
            const email: string = event.data.email;
            const url: string = request.url;
            const length: number = rawBody.length;
            void [email, url, length];
            if (event.event === 'user.deleted') return new Response(null, { status: 202 });
            return undefined;
          },
          onRefused: ({ status, reason }: WebhookRefusal, { request, rawBody }) => console.warn(status, reason, request.headers.get('x-forwarded-for'), rawBody?.length),
        });
        const response: Promise<Response> = POST(new Request('https://example.com/hooks', { method: 'POST', body: '{}' }));
        void response;
        // Hono: app.post('/hooks', (c) => handler(c.req.raw)); Bun.serve({ fetch: handler }); Deno.serve(handler)
        const handler: WebhookFetchHandler = createWebhookFetchHandler({ secret: 'whsec', onEvent: (event) => void event.notifiable.id });
        const hono = (c: { req: { raw: Request } }) => handler(c.req.raw);
        const serve = (options: { fetch(request: Request, server: unknown): Response | Promise<Response> }) => options;
        serve({ fetch: handler });
        void hono;
        const shared: WebhookVerificationOptions = { secret: 'whsec', maxAge: 600_000 };
        const options: WebhookFetchReceiverOptions = { ...shared, onEvent: () => {} };
        createWebhookFetchHandler(options);
        declare const nodeRequest: IncomingMessage;
        // @ts-expect-error Node's request, which createWebhookHandler takes
        void handler(nodeRequest);
        // @ts-expect-error a misspelt option
        createWebhookFetchHandler({ secret: 'whsec', onEvent: () => {}, maxage: 600_000 });
        // @ts-expect-error no secret
        createWebhookFetchHandler({ onEvent: () => {} });
      `, lib);
      assert.deepEqual(diagnostics, []);
    });
  }

  it("type the callbacks' request and response as the framework's when given (Express, Next.js), without casts", () => {
    const express = JSON.stringify(join(ROOT, 'node_modules/@types/express/index.js'));
    const diagnostics = compile(`
      import type { Request as ExpressRequest, Response as ExpressResponse, RequestHandler } from ${express};
      import { createWebhookFetchHandler, createWebhookHandler } from ${webhook};
      interface OrderEvent { orderId: string }
      const handler = createWebhookHandler<OrderEvent, ExpressRequest, ExpressResponse>({
        secret: 'whsec',
        onEvent: (event, { request, response }) => {
          const id: string = event.data.orderId;
          const ip: string | undefined = request.ip;
          response.status(202).json({ id, ip });
        },
        onRefused: ({ status }, { request }) => console.warn(status, request.originalUrl),
        onError: (error, { response }) => void response.locals,
      });
      const mounted: RequestHandler = handler;
      void mounted;
      // Next.js's NextRequest is a Request with more: its fields are there in the callbacks.
      class NextRequest extends Request {
        readonly nextUrl = new URL(this.url);
      }
      const POST = createWebhookFetchHandler<OrderEvent, NextRequest>({ secret: 'whsec', onEvent: (event, { request }) => void [event.data.orderId, request.nextUrl.pathname] });
      void POST(new NextRequest('https://example.com/hooks', { method: 'POST', body: '{}' }));
      // Without them, Node's own types, as before.
      // @ts-expect-error ip is Express's, not IncomingMessage's
      createWebhookHandler({ secret: 'whsec', onEvent: (_event, { request }) => request.ip });
    `);
    assert.deepEqual(diagnostics, []);
  });
});
