// The console reads out a request loaded from history. With keepCredentials the entry keeps the secrets sent, so the
// announcement must mask them as the rows do: the values the environment panel masked, and the parameters the history's
// redactQueryParameters lists. It masked only a URL's credentials and api_key-like names, and spoke the token and the
// appid aloud; this test failed on that code.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';

const OLD_TOKEN = '123456:AAH-old-bot-key';
const APPID = 'weather-appid-0042';

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;

describe('<try-it-console> announcing a request loaded from history', () => {
  it('masks a value sent masked (rotated since) and a listed parameter, which keepCredentials kept in the entry', async () => {
    const { corsApi } = await (await fetch('/__test-servers.json')).json();
    const config = {
      environments: [{ name: 'Live', variables: { base_url: corsApi, bot_token: OLD_TOKEN } }],
      history: { enabled: true, storageKey: `history-load-announcement-${Date.now()}`, keepCredentials: true, redactQueryParameters: ['appid'] },
    };
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/bot{{bot_token}}/getMe?appid=${APPID}"></try-it-console>`);
    const response = oneEvent(el, 'tic-response');
    await el.send();
    await response;
    expect(el.engine!.history.list()[0]!.url, 'kept, as keepCredentials asks').to.contain(OLD_TOKEN);
    // The page rotates the token: the panel no longer knows the old one.
    $<EnvPicker>(el, 'env-picker').manager!.add({ name: 'Live', variables: { base_url: corsApi, bot_token: '123456:AAH-new-bot-key' } });
    await el.updateComplete;

    const history = $<RequestHistory>(el, 'request-history');
    await waitUntil(() => history.shadowRoot!.querySelector('button.entry'), 'the entry shown');
    history.shadowRoot!.querySelector<HTMLButtonElement>('button.entry')!.focus();
    await sendKeys({ press: 'Enter' });
    const announced = $(el, 'section.response .announcements');
    await waitUntil(() => announced.textContent!.startsWith('Loaded GET'), 'the load announced');
    // Each mask said as "hidden value", not as its bullets (masks-hunt-reading.test.ts).
    // Then the note of the response this console kept for the entry.
    expect(announced.textContent).to.match(/^Loaded GET \/bot hidden value \/getMe\?appid= hidden value from history\. Response of .+, from history; Send to send again\.$/);
  });
});
