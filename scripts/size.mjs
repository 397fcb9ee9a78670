// `npm run size`: the gzip size (zlib level 9) of the standalone bundle and of each public entry bundled alone and
// minified with esbuild, then the standalone bundle against the goal and the anchors. It reports; it does not fail
// on size. It exits non-zero only when the build is missing or broken. `--json` prints the numbers as JSON.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const STANDALONE = 'dist/try-it-console.bundle.js';
const GOAL = 40_000;
// Gzipped sizes of the anchors' standalone files, as named in issue 6.
const ANCHORS = [
  { name: "RapiDoc's standalone file", bytes: 217_650 },
  { name: "Swagger UI's standalone file", bytes: 458_210 },
];

/** Newest modification time under `dir`, recursively. */
function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return newest;
}

function buildIfNeeded() {
  const stale = !existsSync(STANDALONE) || statSync(STANDALONE).mtimeMs < newestMtime('src');
  if (!stale) return;
  console.error('The build is missing or older than src/: running npm run build…');
  const result = spawnSync('npm', ['run', '--silent', 'build'], { stdio: ['ignore', 'inherit', 'inherit'], shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error(`npm run build failed (exit ${result.status ?? result.signal}); no sizes to report.`);
    process.exit(1);
  }
}

/** Every public entry: the package's exports plus each element's define file. */
function publicEntries() {
  const entries = [
    { name: '.', file: 'dist/index.js', platform: 'browser' },
    { name: './core', file: 'dist/core/index.js', platform: 'browser' },
  ];
  if (existsSync('dist/components')) {
    for (const entry of readdirSync('dist/components', { withFileTypes: true }).filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = `dist/components/${entry.name}/${entry.name}.js`;
      if (existsSync(file)) entries.push({ name: `./components/${entry.name}`, file, platform: 'browser' });
    }
  }
  entries.push({ name: './webhook', file: 'dist/webhook/index.js', platform: 'node' }, { name: './proxy', file: 'dist/proxy/index.js', platform: 'node' });
  return entries;
}

const gzipSize = (bytes) => gzipSync(bytes, { level: 9 }).length;

/** Bundled alone and minified: browser entries with everything inside, Node entries with only Node's built-ins left out. */
async function measureEntry({ name, file, platform }) {
  if (!existsSync(file)) throw new Error(`${file} (entry ${name}) is missing: is the build complete?`);
  const row = { name, platform, ...(await bundledSize(file, platform, false)) };
  // A Node entry's total is mostly undici, which npm installs anyway; its own code is worth seeing too.
  if (platform === 'node') row.ownCodeGzip = (await bundledSize(file, platform, true)).gzip;
  return row;
}

async function bundledSize(file, platform, dependenciesExternal) {
  const result = await build({
    entryPoints: [file],
    ...(dependenciesExternal ? { packages: 'external' } : {}),
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    target: platform === 'node' ? 'node20' : 'es2022',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const bytes = result.outputFiles[0].contents;
  return { minified: bytes.length, gzip: gzipSize(bytes) };
}

const number = (n) => n.toLocaleString('en-US');
const pad = (text, width) => String(text).padStart(width);

buildIfNeeded();
let rows;
try {
  const bundle = readFileSync(STANDALONE);
  rows = [{ name: `standalone (${STANDALONE})`, platform: 'browser', minified: bundle.length, gzip: gzipSize(bundle) }];
  for (const entry of publicEntries()) rows.push(await measureEntry(entry));
} catch (error) {
  console.error(`Could not measure: ${error.errors?.map((e) => e.text).join('; ') ?? error.message}`);
  process.exit(1);
}

const standalone = rows[0];
const comparison = {
  goal: GOAL,
  withinGoal: standalone.gzip < GOAL,
  anchors: ANCHORS.map((anchor) => ({ ...anchor, ratio: anchor.bytes / standalone.gzip })),
};

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ entries: rows, standalone: standalone.gzip, ...comparison }, null, 2));
  process.exit(0);
}

const nameWidth = Math.max(...rows.map((row) => row.name.length));
console.log(`${'entry'.padEnd(nameWidth)}  ${'platform'.padEnd(8)}  ${pad('minified', 10)}  ${pad('gzip -9', 9)}`);
for (const row of rows) {
  const own = row.ownCodeGzip === undefined ? '' : `  (own code without dependencies: ${number(row.ownCodeGzip)})`;
  console.log(`${row.name.padEnd(nameWidth)}  ${row.platform.padEnd(8)}  ${pad(number(row.minified), 10)}  ${pad(number(row.gzip), 9)}${own}`);
}
console.log('');
const verdict = comparison.withinGoal ? `within the goal of < ${number(GOAL)} (${number(GOAL - standalone.gzip)} to spare)` : `OVER the goal of < ${number(GOAL)} by ${number(standalone.gzip - GOAL)}`;
console.log(`Standalone bundle: ${number(standalone.gzip)} bytes gzipped, ${verdict}.`);
for (const anchor of comparison.anchors) console.log(`  ${anchor.name}: ${number(anchor.bytes)} bytes gzipped, ${anchor.ratio.toFixed(1)}x ours.`);
