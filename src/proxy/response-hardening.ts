// What keeps a browser from taking the proxy's answers for pages of the proxy's own origin. A page's fetch() reads
// them whatever these headers say; they matter when a browser loads a proxy URL itself (a link, a frame: no
// `Origin` header, allowed by `allowOrigins: '*'`), where the API's HTML and its scripts would otherwise run as the
// proxy's origin (its cookies, its storage, a service worker over every proxy URL), for any site that links there.
import { PROXY_CONTENT_SECURITY_POLICY } from '../core/proxy-route.js';
import { headerValues, withoutHeaders, type HeaderList } from './header-list.js';

/**
 * Adds a sandboxing `Content-Security-Policy` after the API's own, comma-separated (browsers enforce every policy
 * given, so one more can only restrict), and `X-Content-Type-Options: nosniff` (a `<script>` or a style sheet link
 * gets only what is declared as script or CSS).
 */
export function addHardeningHeaders(headers: HeaderList): HeaderList {
  const policies = headerValues(headers, 'content-security-policy');
  return [
    ...withoutHeaders(headers, ['content-security-policy', 'x-content-type-options']),
    ['content-security-policy', [...policies, PROXY_CONTENT_SECURITY_POLICY].join(', ')],
    ['x-content-type-options', 'nosniff'],
  ];
}
