// `npm run bench`: runs every bench/*.bench.ts in turn (each prints its ratios against its anchor).
// `npm run bench -- snippet` runs only the files whose name contains "snippet".
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const filter = process.argv[2];
const files = readdirSync('bench')
  .filter((f) => f.endsWith('.bench.ts') && (!filter || f.includes(filter)))
  .sort();
if (files.length === 0) {
  console.error(`No benchmark matches ${JSON.stringify(filter)}.`);
  process.exit(1);
}
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', join('bench', file)], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed > 0 ? 1 : 0);
