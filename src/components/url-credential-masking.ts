import { REDACTED, bracketedKey, isCredentialQueryParameter, queryParameterName } from '../core/history-config.js';

// Out of env-picker/secret-masking.ts: <request-history> and <try-it-console> mask URLs too, and loaded alone need not
// carry the patterns of secret values. These two run in linear time for the reason given there.

/** Shown in place of a secret until the user reveals it. */
export const MASK = '••••••••';

/** A URL's user info, up to the last `@` before the path as URL parsers read it: `jdbc:postgresql://user:password@host`. */
const URL_USERINFO = /([\w+.-]:\/\/)([^\s/?#]*)@/g;
/**
 * `name=value` in a query or fragment (OAuth's implicit flow puts `access_token` there). The value stops before the
 * quote that closes a quoted URL (a failure's `"https://…?api_key=…" uses port 25`): masked, the quote went with it.
 */
const URL_PARAMETER = /([?&#])([^=&#?\s]+)=([^&#\s]+?)(?="\s|[&#\s]|$)/g;

/**
 * `text` with the credentials of its URLs masked: a password (or user info without one), and the credential query and
 * fragment parameters, those named in `listed` too (a history's `redactQueryParameters`, lower-case, matched as history
 * matches them). History's `[redacted]` is left as it is: there is nothing behind it to hide.
 */
export function maskUrlCredentials(text: string, listed: readonly string[] = []): string {
  return text.replace(URL_USERINFO, maskUserinfo).replace(URL_PARAMETER, (parameter, separator: string, name: string, value: string) => {
    const key = queryParameterName(name);
    const credential = isCredentialQueryParameter(key) || listed.includes(key) || listed.includes(bracketedKey(key));
    return value !== REDACTED && credential ? `${separator}${name}=${MASK}` : parameter;
  });
}

// A password alone keeps the user name readable; user info without a password is usually a token (`ghp_…@github.com`).
function maskUserinfo(url: string, schemeEnd: string, userinfo: string): string {
  const colon = userinfo.indexOf(':');
  if (userinfo === '' || colon === userinfo.length - 1 || userinfo.slice(colon + 1) === REDACTED) return url;
  return `${schemeEnd}${colon < 0 ? '' : userinfo.slice(0, colon + 1)}${MASK}@`;
}
