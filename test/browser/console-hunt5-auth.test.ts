// After a 401 or 403, the variables the request's credentials came from are offered for editing beside the status
// ("Edit token {{token}}"): a token that is defined but wrong (expired) otherwise gets no nudge.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import type { ConsoleConfig } from '../../src/core/index.js';
import type { TicResponseEvent } from '../../src/events/index.js';

let servers: { api: string; proxy: string };

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const editButtons = (el: TryItConsole) => [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part="status"] button.edit-credential')];
const editNames = (el: TryItConsole) => editButtons(el).map((button) => button.textContent);

/** Through the real proxy to the loopback API, in an environment holding `variables` besides base_url. */
function config(variables: Record<string, string>, extra: Partial<ConsoleConfig> = {}): ConsoleConfig {
  return { corsProxy: servers.proxy, history: { enabled: false }, environments: [{ name: 'Local', variables: { base_url: servers.api, ...variables } }], ...extra };
}

async function sendAndShow(el: TryItConsole): Promise<TicResponseEvent> {
  const responded = oneEvent(el, 'tic-response') as Promise<TicResponseEvent>;
  void el.send();
  const event = await responded;
  await el.updateComplete;
  return event;
}

describe('<try-it-console> hunt 5: Edit token after a 401 or 403', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('offers Edit token beside a 401\'s status for the variable in the Authorization header, reached by keyboard, which opens its field', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config({ token: 'expired-1', pet_id: '7' })} url="{{base_url}}/challenge" .headers=${{ Authorization: 'Bearer {{token}}', 'X-Pet': '{{pet_id}}' }}></try-it-console>`);
    expect((await sendAndShow(el)).response.status).to.equal(401);
    expect(editNames(el), 'pet_id is no credential').to.deep.equal(['Edit token {{token}}']);
    // Beside the status, not under the body.
    expect(editButtons(el)[0]!.previousElementSibling!.matches('.status')).to.equal(true);

    // Reached by Tab from the element before it, and pressed with Enter.
    editButtons(el)[0]!.previousElementSibling!.setAttribute('tabindex', '-1');
    (editButtons(el)[0]!.previousElementSibling as HTMLElement).focus();
    await sendKeys({ press: 'Tab' });
    expect(el.shadowRoot!.activeElement).to.equal(editButtons(el)[0]);
    await sendKeys({ press: 'Enter' });
    const picker = $<EnvPicker>(el, 'env-picker');
    await waitUntil(() => picker.shadowRoot!.activeElement?.matches('.value-input'), 'the field for token has focus');
    expect(picker.shadowRoot!.activeElement!.closest('tr')!.querySelector('th')!.textContent).to.equal('token');
    await sendKeys({ type: 'fresh-2' });
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => el.engine!.environments.active()!.variables.token === 'fresh-2', 'token set');
    await expect(el).to.be.accessible();
  });

  it('offers it after a 403 for credential-looking headers and query parameters (a default header too), and variables named as secrets, at most three', async () => {
    const variables = { api_key: 'k', access: 'a', session_id: 's', trace: 't', tenant: 'acme', other_key: 'o', sig: 'x' };
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config(variables, { defaultHeaders: { 'X-API-Key': '{{api_key}}', 'X-Tenant': '{{tenant}}' } })} url="/forbidden?access_token={{access}}&q={{trace}}" .headers=${{ 'X-Trace': '{{trace}}', 'X-Session': '{{session_id}}' }}></try-it-console>`);
    expect((await sendAndShow(el)).response.status).to.equal(403);
    expect($(el, '[part="status"] .status').textContent).to.contain('403');
    // In order: the rows, the default headers, the query; neither trace nor tenant is a credential.
    expect(editNames(el)).to.deep.equal(['Edit token {{session_id}}', 'Edit token {{api_key}}', 'Edit token {{access}}']);

    // A row of the default's name replaces it: its api_key was not sent. More than three (api_key in the query is the
    // fourth): the first three.
    el.load({ method: 'GET', url: '/challenge?a={{sig}}&access_token={{api_key}}', headers: { 'x-api-key': '{{other_key}}', Authorization: '{{session_id}}', 'X-Trace': '{{trace}}', 'X-Extra': '{{access}}' } });
    expect((await sendAndShow(el)).response.status).to.equal(401);
    expect(editNames(el)).to.deep.equal(['Edit token {{other_key}}', 'Edit token {{session_id}}', 'Edit token {{sig}}']);
  });

  it('offers none for a success, for a variable the environment lacks (Set is offered), nor while the environment panel is read-only', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config({ token: 'fine' })} url="{{base_url}}/pets" .headers=${{ Authorization: 'Bearer {{token}}' }}></try-it-console>`);
    expect((await sendAndShow(el)).response.status).to.equal(200);
    expect(editButtons(el), 'a 200').to.have.length(0);

    el.url = '{{base_url}}/challenge';
    el.headers = { Authorization: 'Bearer {{token}}', 'X-API-Key': '{{api_key}}' };
    await el.updateComplete;
    await sendAndShow(el);
    expect(editNames(el), 'api_key is undefined').to.deep.equal(['Edit token {{token}}']);
    expect([...el.shadowRoot!.querySelectorAll('.set-missing button')].map((button) => button.textContent)).to.deep.equal(['Set api_key']);

    $<EnvPicker>(el, 'env-picker').readonly = true;
    await sendAndShow(el);
    expect(editButtons(el), 'read-only values').to.have.length(0);
  });
});
