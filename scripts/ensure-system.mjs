// Makes sure the system tools the tests need are present. They come from Debian only: where we run as
// root, a missing one is installed with apt-get; otherwise we stop and say exactly what to install.
import { execFileSync, spawnSync } from 'node:child_process';

/** Each requirement: how to tell it is there, and the Debian package that provides it. */
export const requirements = [
  { what: 'Chromium (browser tests)', check: ['/usr/bin/chromium', '--version'], debian: 'chromium' },
  { what: 'curl (curl snippets)', check: ['curl', '--version'], debian: 'curl' },
  { what: 'zsh (curl snippets pasted into zsh)', check: ['zsh', '--version'], debian: 'zsh' },
  { what: 'Go (Go snippets)', check: ['go', 'version'], debian: 'golang-go' },
  { what: 'PHP (PHP snippets)', check: ['php', '--version'], debian: 'php-cli' },
  { what: "PHP's curl extension (PHP snippets)", check: ['php', '-r', 'exit(extension_loaded("curl") ? 0 : 1);'], debian: 'php-curl' },
  { what: 'Python requests (Python snippets)', check: ['/usr/bin/python3', '-c', 'import requests'], debian: 'python3-requests' },
];

function present({ check: [command, ...args] }) {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

export function ensureSystem() {
  const missing = requirements.filter((r) => !present(r));
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((r) => r.debian))];
  console.log(`Installing missing system tools: ${missing.map((r) => r.what).join(', ')}`);
  if (process.getuid?.() !== 0) {
    console.error(`\nThe tests need these Debian packages. Install them and run again:\n\n  sudo apt-get install -y ${packages.join(' ')}\n`);
    process.exit(1);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env });
  const still = missing.filter((r) => !present(r));
  if (still.length > 0) {
    console.error(`Still missing after apt-get: ${still.map((r) => `${r.what} (${r.debian})`).join(', ')}`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) ensureSystem();
