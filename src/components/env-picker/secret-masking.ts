import { isPlaceholderCredential } from '../../core/history.js';
import { MASK, maskUrlCredentials } from '../url-credential-masking.js';

export { MASK };

// Every pattern on values runs in linear time whatever the value holds: each unbounded run starts only after a
// fixed prefix that the run cannot contain, so no character is scanned from more than one or two starts. `\b` is
// not such a prefix: `-` is a word boundary, so `eyJ-eyJ-…` restarted a scan at every `-` (quadratic).

/** Parts of a variable name that mark its value secret wherever they appear (`x_api_token`, `dbPassword`), but not `author`. */
const SECRET_NAME_PART = /token|secret|passw|passphrase|passcode|pwd|credential|private|privkey|session|cookie|signature|bearer|jwt|api_?key|hmac|totp|auth(?!or(?!i[sz]))/;
/** Short words that mark a name secret only as a whole word, digits allowed: `db_pass`, `key2`, `user_pw`, not `path` or `keyword`. */
const SECRET_NAME_WORD = /(?:^|[_\d])(?:key|pass|pat|sig|pin|otp|pw|creds?)(?:[_\d]|$)/;
/**
 * Well-known credentials, whatever the variable is called: a JWT, a private key in PEM, Stripe, OpenAI, Anthropic,
 * Google, Hugging Face, npm, GitHub, GitLab, AWS, Slack, SendGrid and Shopify keys, a webhook signing secret, a Slack
 * or Discord webhook URL. Such a URL is masked whole, host included: only values masked whole stay out of history.
 */
const WELL_KNOWN_SECRET = new RegExp(
  [
    /(?<![\w-])eyJ[\w-]+\.[\w-]+\./,
    /-----BEGIN [A-Z ]*PRIVATE KEY/,
    /\b[rs]k_(?:live|test)_\w/,
    /\bsk-(?:(?:proj|svcacct|admin|ant)-[\w-]{20}|[A-Za-z\d]{48}(?![\w-]))/,
    /\bAIza[\w-]{35}(?![\w-])/,
    /\bhf_[A-Za-z]{34}\b/,
    /\bnpm_[A-Za-z\d]{36}\b/,
    /\bwhsec_[\w+/]/,
    /\b(?:gh[oprsu]_\w{20}|github_pat_\w)/,
    /\bglpat-[\w-]/,
    /\b(?:AKIA|ASIA)[\dA-Z]{16}\b/,
    /\b(?:xox[abeprs]-\w|xapp-\d-[A-Z\d]+-\d+-\w)/,
    /\bhooks\.slack\.com\/services\/T\w+\/B\w+\/\w/,
    /\bdiscord(?:app)?\.com\/api\/(?:v\d+\/)?webhooks\/\d+\/[\w-]/,
    /\bSG\.[\w-]{22}\.[\w-]{43}/,
    /\bshp(?:at|ca|pa|ss)_[a-fA-F\d]{32}/,
  ]
    .map((pattern) => pattern.source)
    .join('|'),
);

/** `name=value` in a connection string (`Server=db;User ID=app;Password=…`, Azure's `AccountKey=…`). */
const CONNECTION_STRING_PAIR = /(^|;)([\w .-]+)=([^;]+)/g;

/**
 * A variable's value as shown until revealed, or `undefined` when nothing in it looks secret: masked whole when
 * the name looks secret or the value holds a well-known credential; otherwise only the credentials in its URLs
 * and the secret-looking pairs of a connection string, so that the rest stays readable.
 */
export function maskedValue(name: string, value: string): string | undefined {
  if (isSecretName(name) || WELL_KNOWN_SECRET.test(value)) return MASK;
  const masked = maskUrlCredentials(value).replace(CONNECTION_STRING_PAIR, (pair, start: string, key: string) => (isSecretName(key) ? `${start}${key}=${MASK}` : pair));
  return masked === value ? undefined : masked;
}

/**
 * A header's value as shown while values are hidden, or `undefined` when nothing in it looks secret: masked as a
 * variable of the header's name is (a token the page put in `Authorization` after sign-in), but for a value that only
 * refers to a variable (`Bearer {{token}}`), which holds none.
 */
export function maskedHeaderValue(name: string, value: string): string | undefined {
  return isPlaceholderCredential(value) ? undefined : maskedValue(name, value);
}

function isSecretName(name: string): boolean {
  const words = name.replace(/([a-z\d])([A-Z])/g, '$1_$2').toLowerCase().replace(/[^a-z\d]+/g, '_');
  return SECRET_NAME_PART.test(words) || SECRET_NAME_WORD.test(words);
}
