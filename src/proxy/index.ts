// `try-it-console/proxy`: the CORS proxy the console sends cross-origin requests through. Node only.
export { createProxyServer, startProxy, type ProxyServerOptions, type RunningProxy, type StartProxyOptions } from './server.js';
export { CorsProxy, writeRefusal } from './cors-proxy.js';
export {
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_MAX_REQUEST_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT,
  type ProxyOptions,
} from './proxy-options.js';
export { UPSTREAM_WWW_AUTHENTICATE_HEADER } from '../core/proxy-route.js';
export type { OriginAllowList } from './origin-policy.js';
export type { ConnectTarget, PrivateAddressAllowance } from './address-policy.js';
export type { HostResolver } from './guarded-connector.js';
export { classifyAddress, describeAddressClass, type AddressClass } from './address-class.js';
export {
  PROXY_ERROR_HEADER,
  PROXY_REFUSAL_CODES,
  ProxyRefusal,
  isProxyRefusal,
  type ProxyRefusalBody,
  type ProxyRefusalRecord,
  type ProxyRefusalCode,
} from './refusal.js';
