// A loopback port nothing listens on, for tests of a server that is down. A port listened on and closed again is
// not enough: the kernel hands its ephemeral ports (port 0, outgoing connections) to the next asker, so a test
// running in parallel could be listening there by the time the request goes out. A port below that range, free
// when checked, is one that only an explicit listen could take, and the test servers never choose their ports.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const RANGE_FILE = '/proc/sys/net/ipv4/ip_local_port_range';
// Below Linux's default range (32768-60999) and above the ports Chromium refuses to fetch from (the highest is 10080).
const LOWEST = 20_000;
const ATTEMPTS = 50;

/** The lowest ephemeral port, from Linux's setting; other systems' ranges start higher than this default. */
function ephemeralStart() {
  let low;
  try {
    low = Number(readFileSync(RANGE_FILE, 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return 32_768;
  }
  // A range that starts lower leaves no port outside it here: say so rather than pick one inside it.
  if (!Number.isInteger(low) || low <= LOWEST + ATTEMPTS) throw new Error(`closedPort: ${RANGE_FILE} starts the ephemeral ports at ${low}; tests need ports from ${LOWEST} to ${LOWEST + ATTEMPTS} outside it`);
  return low;
}

function isFree(port, host) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/**
 * A port on `host` that nothing listens on and that no ephemeral allocation will hand out.
 * @param {'127.0.0.1' | '::1'} [host]
 * @returns {Promise<number>}
 */
export async function closedPort(host = '127.0.0.1') {
  const span = ephemeralStart() - LOWEST;
  const start = LOWEST + Math.floor(Math.random() * span);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const port = LOWEST + ((start - LOWEST + attempt) % span);
    if (await isFree(port, host)) return port;
  }
  throw new Error(`closedPort: ${ATTEMPTS} ports from ${start} on ${host} were all in use; free some, or rerun`);
}
