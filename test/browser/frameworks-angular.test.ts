// The elements in an Angular app, bound as README's "Embedding" says: standalone components with
// CUSTOM_ELEMENTS_SCHEMA, templates compiled in the page by @angular/compiler (JIT: no Angular CLI runs here) and
// zoneless change detection, Angular's default since v21.
import '@angular/compiler';
import { NgIf } from '@angular/common';
import { ApplicationRef, CUSTOM_ELEMENTS_SCHEMA, Component, InjectionToken, inject, provideZonelessChangeDetection, signal, type ComponentRef, type Type } from '@angular/core';
import { createApplication } from '@angular/platform-browser';
import { expect, waitUntil } from '@open-wc/testing';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { ConsoleConfig } from '../../src/core/index.js';
import type { TicRequestErrorEvent, TicResponseEvent } from '../../src/events/index.js';
import { describeEmbedding, kindOf, settle, shadow, shownProblem, shownRequest, testConfig, watchProblems, type AppProps, type MountApp } from './support/framework-embedding.js';

/** What the root component reads with `inject(PROPS)`: the shared suite's props, or a test's own. */
const PROPS = new InjectionToken<unknown>('props');

interface Started<T> {
  appRef: ApplicationRef;
  component: ComponentRef<T>;
}

/** An Angular application of its own, its root component rendered into a new element at the end of `container`. */
async function start<T>(root: Type<T>, container: HTMLElement, props: unknown): Promise<Started<T>> {
  const appRef = await createApplication({ providers: [provideZonelessChangeDetection(), { provide: PROPS, useValue: props }] });
  const host = container.appendChild(document.createElement('div'));
  const component = appRef.bootstrap(root, host);
  await appRef.whenStable();
  return { appRef, component };
}

/** What the shared suite renders, every input a property binding and every listener an event binding. */
@Component({
  selector: 'console-app',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <try-it-console [config]="app().config" [method]="app().method" [url]="app().url" [headers]="app().headers" [body]="app().body"
      (tic-before-send)="app().onEvent($event)" (tic-response)="app().onEvent($event)" (tic-request-error)="app().onEvent($event)"
      (tic-environment-change)="app().onEvent($event)" (tic-history-select)="app().onEvent($event)"></try-it-console>
    <request-history [history]="app().history" (tic-history-select)="app().onEvent($event)" (tic-history-delete)="app().onEvent($event)"></request-history>
    <code-snippet method="POST" url="https://api.example/pets" [languages]="app().languages"
      (tic-language-change)="app().onEvent($event)" (tic-copy)="app().onEvent($event)"></code-snippet>
  `,
})
class ConsoleApp {
  readonly app = signal(inject(PROPS) as AppProps);
}

/** A re-render is a new value in the root component's signal, patched by Angular's own scheduler. */
const mountAngularApp: MountApp = async (container, props) => {
  const { appRef, component } = await start(ConsoleApp, container, props);
  return {
    async rerender(next: AppProps) {
      component.instance.app.set(next);
      await appRef.whenStable();
    },
    async unmount() {
      appRef.destroy();
    },
  };
};

let servers: { api: string; proxy: string };
let container: HTMLDivElement;

const config = (name: string): ConsoleConfig => testConfig(servers, `angular-${name}`);

/** The console and nothing else, its configuration from `inject(PROPS)` and its URL, with {{placeholders}}, from a field. */
abstract class SingleConsole {
  readonly config = inject(PROPS) as ConsoleConfig;
  readonly url: string = '{{base_url}}/pets';
}

@Component({ selector: 'console-without-schema', template: `<try-it-console [config]="config" [url]="url"></try-it-console>` })
class ConsoleWithoutSchema extends SingleConsole {}

@Component({ selector: 'console-with-schema', schemas: [CUSTOM_ELEMENTS_SCHEMA], template: `<try-it-console [config]="config" [url]="url"></try-it-console>` })
class ConsoleWithSchema extends SingleConsole {}

// First, while the elements are not defined: this file imports the package only afterwards.
describe('embedded in Angular, rendered before the package is imported', () => {
  let started: Started<unknown> | undefined;

  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
  });
  afterEach(() => {
    started?.appRef.destroy();
    started = undefined;
    container.remove();
  });

  // The Angular compiler of a CLI build refuses such a template outright; compiled in the page, it is reported here.
  it('reports the elements and their bindings when the component lacks CUSTOM_ELEMENTS_SCHEMA', async () => {
    const watch = watchProblems();
    try {
      started = await start(ConsoleWithoutSchema, container, config('without-schema'));
    } finally {
      watch.stop();
    }
    expect(watch.problems.join('\n')).to.contain("NG0304: 'try-it-console' is not a known element").and.contain("NG0303: Can't bind to 'config'");
  });

  it('sets [config] as a property all the same, which the console takes up once the package is imported', async () => {
    const watch = watchProblems();
    try {
      started = await start(ConsoleWithSchema, container, config('too-early'));
      const el = container.querySelector('try-it-console')!;
      expect(el.hasAttribute('config'), 'not set as an attribute ("[object Object]")').to.equal(false);
      await import('../../src/index.js');
      await (el as TryItConsole).updateComplete;
      expect(shownProblem(el)).to.equal(undefined);
      expect((el as TryItConsole).engine!.environments.active()!.name).to.equal('Local');
      expect(shownRequest(el as TryItConsole).url).to.equal('{{base_url}}/pets');
      started.appRef.destroy();
      started = undefined;
      await settle();
    } finally {
      watch.stop();
    }
    expect(watch.problems).to.deep.equal([]);
  });
});

/** README's Angular line, with the URL bound from a field: in a template, Angular reads {{base_url}} as its own. */
@Component({
  selector: 'readme-example',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <try-it-console [config]="config" method="GET" [url]="url" headers='{"Accept":"application/json"}' (tic-response)="onResponse($event)"></try-it-console>
    <output>{{ status() }}</output>
  `,
})
class ReadmeExample extends SingleConsole {
  readonly status = signal('no response');
  readonly responses: TicResponseEvent[] = [];

  onResponse(event: TicResponseEvent) {
    this.responses.push(event);
    this.status.set(`${event.response.status} from ${event.response.request.url}`);
  }
}

@Component({ selector: 'url-in-template', schemas: [CUSTOM_ELEMENTS_SCHEMA], template: `<try-it-console [config]="config" url="{{base_url}}/pets"></try-it-console>` })
class UrlInTemplate extends SingleConsole {}

/** The console shown while `shown()`, its send held by the test server until cancelled. */
abstract class ToggledConsole extends SingleConsole {
  readonly shown = signal(true);
  override readonly url = '{{base_url}}/hold';
}

@Component({
  selector: 'if-block-console',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `@if (shown()) { <try-it-console [config]="config" [url]="url"></try-it-console> }`,
})
class IfBlockConsole extends ToggledConsole {}

@Component({
  selector: 'ng-if-console',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  imports: [NgIf],
  template: `<try-it-console *ngIf="shown()" [config]="config" [url]="url"></try-it-console>`,
})
class NgIfConsole extends ToggledConsole {}

describe('with the package imported', () => {
  before(() => import('../../src/index.js'));

  describeEmbedding('Angular', mountAngularApp);

  describe('embedded in Angular: what is particular to Angular', () => {
    let started: Started<unknown> | undefined;
    let watch: ReturnType<typeof watchProblems>;

    beforeEach(() => {
      container = document.createElement('div');
      document.body.append(container);
      watch = watchProblems();
    });
    afterEach(async () => {
      started?.appRef.destroy();
      started = undefined;
      container.remove();
      await settle();
      watch.stop();
      expect(watch.problems, 'logged while the app ran').to.deep.equal([]);
    });

    it('works as README writes it, the handler’s signal updating the view without zone.js', async () => {
      const app = await start(ReadmeExample, container, config('readme'));
      started = app;
      const el = container.querySelector<TryItConsole>('try-it-console')!;
      await el.updateComplete;
      expect(el.hasAttribute('config'), 'a property, not "[object Object]"').to.equal(false);
      expect(shownProblem(el)).to.equal(undefined);
      expect(shownRequest(el)).to.deep.equal({ method: 'GET', url: '{{base_url}}/pets', headers: { Accept: 'application/json' }, body: undefined });
      shadow(el, '[part="send-button"]').click();
      await waitUntil(() => app.component.instance.responses.length === 1, 'the handler hears the response');
      expect(kindOf(app.component.instance.responses[0]!)).to.equal('TicResponseEvent');
      await app.appRef.whenStable();
      expect(container.querySelector('output')!.textContent).to.equal(`200 from ${servers.api}/pets`);
    });

    it('reads url="{{base_url}}/pets" written in a template as Angular’s interpolation, not the console’s placeholder', async () => {
      started = await start(UrlInTemplate, container, config('interpolated'));
      const el = container.querySelector<TryItConsole>('try-it-console')!;
      await el.updateComplete;
      expect(shownRequest(el).url, 'base_url is no field of the component: Angular writes nothing for it').to.equal('/pets');
    });

    for (const [block, root] of [
      ['@if', IfBlockConsole],
      ['*ngIf', NgIfConsole],
    ] as const) {
      it(`is removed by ${block} with a send in flight without errors, the send ending as cancelled, and shown again as a new console`, async () => {
        const app = await start<ToggledConsole>(root, container, config(`removed-by-${block}`));
        started = app;
        const el = container.querySelector<TryItConsole>('try-it-console')!;
        await el.updateComplete;
        const ended: TicRequestErrorEvent[] = [];
        el.addEventListener('tic-request-error', (event) => ended.push(event));
        const sending = new Promise((resolve) => el.addEventListener('tic-before-send', resolve, { once: true }));
        shadow(el, '[part="send-button"]').click();
        await sending;

        app.component.instance.shown.set(false);
        await app.appRef.whenStable();
        expect(container.querySelector('try-it-console') === null, 'removed from the page').to.equal(true);
        await waitUntil(() => ended.length === 1, 'the send ended');
        expect(ended[0]!.error.kind).to.equal('aborted');

        app.component.instance.shown.set(true);
        await app.appRef.whenStable();
        const again = container.querySelector<TryItConsole>('try-it-console')!;
        expect(again === el, 'a new element').to.equal(false);
        await again.updateComplete;
        expect(shownRequest(again).url).to.equal('{{base_url}}/hold');
      });
    }
  });
});
