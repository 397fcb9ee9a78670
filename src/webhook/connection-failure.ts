// A webhook attempt that failed without an answer and without a timeout, put in words that point at the fix: this
// machine running out of sockets is not the receiver's fault, a refused certificate says how to trust it, a
// connection that stayed silent or spoke something else may be the wrong scheme, and a receiver that speaks only
// HTTP/2 is named as such, with the dispatcher that reaches it.
import { DROPPED_CONNECTION_CODES, NOT_TLS_CODES } from '../core/dropped-connection.js';
import { WebhookAttemptError } from './attempt-failure.js';

/** What the failure's message needs to know about the channel. */
export interface FailedConnection {
  /** `POST https://hooks.example.com/…`, as messages show the channel's address. */
  readonly target: string;
  /** The channel's url scheme: `http:` or `https:`. */
  readonly protocol: string;
  readonly maxConcurrent: number;
}

// This machine's limits, met while opening a connection: what ran out, and what to do besides sending fewer at once.
const LOCAL_SHORTAGES: Readonly<Record<string, readonly [shortage: string, remedy: string]>> = {
  EMFILE: ['this process ran out of file descriptors (each connection is one)', "or raise the process's limit of open files (ulimit -n; LimitNOFILE= in a systemd unit)"],
  ENFILE: ['this machine ran out of file descriptors (each connection is one)', "or raise the system's limit of open files (fs.file-max)"],
  EADDRNOTAVAIL: ['this machine had no local port left to connect from', 'or widen the range of local ports (net.ipv4.ip_local_port_range)'],
  ENOBUFS: ['this machine ran out of memory for sockets', ''],
  ENOMEM: ['this machine ran out of memory', ''],
};

// OpenSSL's verdicts on the receiver's certificate (Node gives them as the error's code), by what would fix them.
const UNTRUSTED_ISSUER = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
  'INVALID_CA',
]);
const OUT_OF_DATE = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const OTHER_HOST = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH']);
const OTHER_CERTIFICATE_FAULTS = new Set([
  'CERT_REVOKED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
]);

/** The attempt's failure for `cause`, an error the HTTP client gave while connecting, sending or awaiting the status. */
export function connectionFailure(cause: unknown, { target, protocol, maxConcurrent }: FailedConnection): WebhookAttemptError {
  const code = codeOf(cause);
  const shortage = LOCAL_SHORTAGES[code];
  if (shortage !== undefined) {
    const [what, remedy] = shortage;
    return new WebhookAttemptError(
      'network',
      `${target} could not be sent: ${what}: ${describeCause(cause)}. That is a limit of this machine, not a fault of the receiver: lower the channel's maxConcurrent (now ${maxConcurrent}), or send through fewer channels at once${remedy ? `, ${remedy}` : ''}.`,
      { cause },
    );
  }
  const certificateFix = UNTRUSTED_ISSUER.has(code)
    ? "This process does not trust who issued it: for a self-signed certificate or one of a private CA, pass dispatcher: new Agent({ connect: { ca: readFileSync('receiver-ca.pem') } }) from undici (or set NODE_EXTRA_CA_CERTS); a public receiver may be leaving out its intermediate certificates."
    : OUT_OF_DATE.has(code)
      ? "It is not valid today: the receiver must renew it (or this machine's clock is wrong)."
      : OTHER_HOST.has(code)
        ? 'It is for another host name: use a url with a name the certificate covers.'
        : OTHER_CERTIFICATE_FAULTS.has(code)
          ? ''
          : undefined;
  if (certificateFix !== undefined) {
    // Only trust is this process's to give, so only its refusal is the same on every retry. A certificate renewed, a
    // clock set right or one node of many serving another name can mend between attempts: retried as network failures.
    const untrusted = UNTRUSTED_ISSUER.has(code);
    return new WebhookAttemptError(
      untrusted ? 'certificate' : 'network',
      `${target} could not be reached: its TLS certificate was refused: ${describeCause(cause)}.${certificateFix ? ` ${certificateFix}` : ''}${untrusted ? ' Retrying does not change who issued it: by default this failure is not retried, unless your shouldRetry says so.' : ''}`,
      { cause },
    );
  }
  if (NOT_TLS_CODES.has(code)) {
    return new WebhookAttemptError('network', `${target} could not be reached: the port did not answer in TLS (${openSslReason(cause)}, ${code}); if it speaks plain HTTP, the url should start with http://.`, { cause });
  }
  if (code === 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL') {
    return new WebhookAttemptError('network', `${target} refused HTTP/1.1 in the TLS handshake (${openSslReason(cause)}, ${code}), as a receiver that speaks only HTTP/2 does (node:http2's createSecureServer without allowHTTP1). Have the receiver accept HTTP/1.1 too (allowHTTP1: true), or send in HTTP/2 through dispatcher: new Agent({ allowH2: true }) from undici.`, { cause });
  }
  // OpenSSL's own message runs over several lines, with its source file: its reason alone is what a log can use.
  if (code.startsWith('ERR_SSL_')) {
    return new WebhookAttemptError('network', `${target} could not be reached: the TLS handshake failed (${openSslReason(cause)}, ${code}).`, { cause });
  }
  if (isHttp2Preface(cause)) {
    return new WebhookAttemptError(
      'network',
      `${target} answered in HTTP/2 without TLS (h2c), as node:http2's createServer does; this channel speaks HTTP/1.1. Have the receiver accept HTTP/1.1 (node:http's createServer, which createWebhookHandler works with as well), or send in HTTP/2 through dispatcher: new Agent({ factory: (origin) => new H2CClient(origin) }) from undici.`,
      { cause },
    );
  }
  if ((cause as Error | undefined)?.name === 'HTTPParserError') {
    return new WebhookAttemptError('network', `${target} answered with something other than HTTP/1.1: ${describeCause(cause)}. Check that the url's port is the receiver's, and what stands in front of it.`, { cause });
  }
  if (!DROPPED_CONNECTION_CODES.has(code)) return new WebhookAttemptError('network', `${target} could not be reached: ${describeCause(cause)}.`, { cause });
  // A TLS port given a plain request closes the connection without a byte. So do other failures, whence the "if".
  const silent = protocol === 'http:' && code === 'UND_ERR_SOCKET' && (cause as { socket?: { bytesRead?: unknown } }).socket?.bytesRead === 0;
  const tlsHint = silent ? ' Not a byte came back on that connection, as when the port speaks only HTTPS: if so, the url should start with https://.' : '';
  return new WebhookAttemptError('network', `${target} closed the connection without answering: ${describeCause(cause)}.${tlsHint}`, { cause });
}

/** An error's message and code, `message (CODE)`, for the messages of failures. */
export function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause as { code?: unknown }).code;
  return typeof code === 'string' ? `${cause.message} (${code})` : cause.message;
}

// An HTTP/2 server's first bytes, whatever it was sent: a SETTINGS frame, type 4 in the fourth byte of its header, the
// first byte 0 for any payload shorter than 64 KiB. undici's parser quotes them in the error it gives.
function isHttp2Preface(cause: unknown): boolean {
  const { name, data } = (cause ?? {}) as { name?: unknown; data?: unknown };
  return name === 'HTTPParserError' && typeof data === 'string' && data.length >= 9 && data.charCodeAt(0) === 0 && data.charCodeAt(3) === 4;
}

function codeOf(cause: unknown): string {
  return String((cause as { code?: unknown } | undefined)?.code);
}

// OpenSSL writes `<id>:error:<code>:SSL routines:<function>:wrong version number:<source file>:<line>:`; the reason
// is the part to show.
function openSslReason(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  return /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1] ?? message.trim();
}
