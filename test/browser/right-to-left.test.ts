// <try-it-console> on a right-to-left page (Arabic, Hebrew, Persian docs): the page's words read right to left, but
// URLs, headers, bodies and responses are code, drawn left to right: the braces and slashes at either end of
// `{{base_url}}/pets?x=1` would otherwise move to the other end, mirrored.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/components/try-it-console/try-it-console.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { drawnAt } from './support/drawn-at.js';

describe('<try-it-console> on a right-to-left page', () => {
  it('draws the URL, headers, body and response left to right, and keeps its own labels right to left', async () => {
    const servers = (await (await fetch('/__test-servers.json')).json()) as { api: string; proxy: string };
    const config = { corsProxy: servers.proxy, environments: [{ name: 'Local', variables: { base_url: servers.api } }], history: { enabled: false } };
    const page = await fixture<HTMLElement>(html`<div dir="rtl" lang="ar" style="width: 640px">
      <try-it-console .config=${config} method="POST" url="{{base_url}}/pets?x=1" .headers=${{ 'X-Tag': '{{tag}}' }} body='{"name": "Rex"}'></try-it-console>
    </div>`);
    const el = page.querySelector<TryItConsole>('try-it-console')!;
    await el.updateComplete;
    const shadow = el.shadowRoot!;
    // The URL as the console reads it, placeholders marked: each character right of the one before.
    const lefts = drawnAt(shadow.querySelector('.url-template')!);
    expect(lefts).to.have.length('{{base_url}}/pets?x=1'.length);
    expect(lefts.every((left, i) => i === 0 || left > lefts[i - 1]!), `drawn at ${lefts.join(', ')}`).to.equal(true);
    for (const field of ['#url', '.header-row input.name', '.header-row input.value', 'textarea']) {
      expect(getComputedStyle(shadow.querySelector(field)!).direction, field).to.equal('ltr');
    }
    expect(getComputedStyle(el).direction, 'the console’s own words').to.equal('rtl');

    await el.send();
    await el.updateComplete;
    const body = shadow.querySelector('[part="response-body"] pre')!;
    expect(getComputedStyle(body).direction).to.equal('ltr');
    const bodyLefts = drawnAt(body.querySelector('code')!.firstElementChild ?? body);
    expect(bodyLefts.slice(0, 3).every((left, i) => i === 0 || left > bodyLefts[i - 1]!), 'the response’s first line from its start').to.equal(true);
  });
});
