import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import { History, type ConsoleConfig } from '../../src/core/index.js';
import { axNodes, landmarks } from './support/accessibility-tree.js';

// A docs page with a console per operation: each console named after its operation is one landmark, and its headings
// fit the page's outline.

let run = 0;

function config(): ConsoleConfig {
  run += 1;
  return {
    environments: [{ name: 'Local', variables: { base_url: 'http://127.0.0.1:9' } }],
    history: { enabled: true, storageKey: `console-landmarks-${Date.now()}-${run}` },
  };
}

/** The console's headings Response, Code, Environment and History, as `name level`. */
async function headings(): Promise<string[]> {
  return (await axNodes())
    .filter((node) => node.role === 'heading' && ['Response', 'Code', 'Environment', 'History'].includes(node.name ?? ''))
    .map((node) => `${node.name} ${node.level}`);
}

async function settled(...consoles: TryItConsole[]): Promise<void> {
  for (const console of consoles) {
    await console.updateComplete;
    const history = console.shadowRoot!.querySelector<RequestHistory>('request-history')!;
    await history.updateComplete;
  }
}

describe('<try-it-console> on a page with a console per operation', () => {
  it('is one landmark named by its label, its parts groups within it, so two consoles are told apart', async () => {
    const page = await fixture<HTMLElement>(html`<div>
      <try-it-console label="List pets" url="{{base_url}}/pets" .config=${config()}></try-it-console>
      <try-it-console label="Add a pet" method="POST" url="{{base_url}}/pets" .config=${config()}></try-it-console>
    </div>`);
    await settled(...page.querySelectorAll<TryItConsole>('try-it-console'));
    expect(await landmarks()).to.deep.equal(['region List pets', 'region Add a pet']);
    // Groups are left out of the snapshot of what is interesting: read from the elements.
    for (const console of page.querySelectorAll<TryItConsole>('try-it-console')) {
      const groups = [...console.shadowRoot!.querySelectorAll('[role="group"][aria-label]')].map((group) => group.getAttribute('aria-label'));
      expect(groups).to.include.members(['Request', 'Response', 'Code']);
    }
    await expect(page.querySelector('try-it-console')).to.be.accessible();
  });

  it('keeps its request, response, code and side landmarks when it has no label, and when its label is removed', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console label="List pets" .config=${config()}></try-it-console>`);
    el.removeAttribute('label');
    await settled(el);
    expect(await landmarks()).to.deep.equal(['region Request', 'region Response', 'region Code', 'complementary Environment and history']);
  });

  it('renders, unnamed, when a framework sets its label property to undefined, null or a number', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console label="List pets" .config=${config()}></try-it-console>`);
    for (const label of [undefined, null, 42]) {
      (el as unknown as { label: unknown }).label = label;
      await settled(el);
      expect(el.shadowRoot!.querySelector('#url'), String(label)).to.not.equal(null);
      expect(await landmarks(), String(label)).to.deep.equal(['region Request', 'region Response', 'region Code', 'complementary Environment and history']);
    }
  });

  it('puts its headings, the environment’s and the history’s too, at the level given by heading-level', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console heading-level="4" .config=${config()}></try-it-console>`);
    await settled(el);
    expect(await headings()).to.deep.equal(['Response 4', 'Code 4', 'Environment 4', 'History 4']);

    // As a number set by a framework, then levels outside 1 to 6 and other text: the headings' own level, 2.
    el.headingLevel = 1;
    await settled(el);
    expect(await headings()).to.deep.equal(['Response 1', 'Code 1', 'Environment 1', 'History 1']);
    for (const level of ['7', '0', '2.5', 'three', '']) {
      el.setAttribute('heading-level', level);
      await settled(el);
      expect(await headings(), level).to.deep.equal(['Response 2', 'Code 2', 'Environment 2', 'History 2']);
    }
  });

  it('lets <request-history> alone take a heading-level too', async () => {
    const el = await fixture<RequestHistory>(html`<request-history heading-level="3"></request-history>`);
    el.history = new History({ enabled: false });
    await el.updateComplete;
    expect(await headings()).to.deep.equal(['History 3']);
  });
});
