/** Shown in place of a secret until the user reveals it. */
export const MASK = '••••••••';

/** Parts of a variable name that mark its value secret wherever they appear (`x_api_token`, `dbPassword`). */
const SECRET_NAME_PART = /token|secret|passw|passphrase|pwd|credential|private|session|cookie|signature|bearer|jwt|api_?key|auth/;
/** Short words that mark a name secret only as a whole word: `db_pass`, `gh_pat`, `stripe_key`, not `path` or `keyword`. */
const SECRET_NAME_WORD = /(^|_)(key|pass|pat|sig|pin|otp)(_|$)/;
/** Well-known credentials, whatever the variable is called: a JWT, Stripe, GitHub, GitLab, AWS and Slack keys. */
const WELL_KNOWN_SECRET = /\beyJ[\w-]+\.[\w-]+\.|\b[rs]k_(live|test)_\w|\b(gh[oprsu]_\w{20}|github_pat_\w)|\bglpat-[\w-]|\b(AKIA|ASIA)[\dA-Z]{16}\b|\bxox[abprs]-\w/;
/** The password of a URL with user info: `https://user:password@host`. */
const URL_PASSWORD = /^([a-z][\w+.-]*:\/\/[^\s/?#@:]*:)[^\s/?#@]+@/i;

/**
 * A variable's value as shown until revealed, or `undefined` when nothing in it looks secret: masked whole when
 * the name looks secret or the value holds a well-known credential; a URL's password alone otherwise.
 */
export function maskedValue(name: string, value: string): string | undefined {
  const words = name.replace(/([a-z\d])([A-Z])/g, '$1_$2').toLowerCase().replace(/[^a-z\d]+/g, '_');
  if (SECRET_NAME_PART.test(words) || SECRET_NAME_WORD.test(words) || WELL_KNOWN_SECRET.test(value)) return MASK;
  return URL_PASSWORD.test(value) ? value.replace(URL_PASSWORD, `$1${MASK}@`) : undefined;
}
