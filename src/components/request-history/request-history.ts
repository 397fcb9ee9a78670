import { RequestHistory } from './request-history.component.js';

export { RequestHistory };

if (!customElements.get('request-history')) customElements.define('request-history', RequestHistory);

declare global {
  interface HTMLElementTagNameMap {
    'request-history': RequestHistory;
  }
}
