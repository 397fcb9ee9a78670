import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';

describe('IdbHistoryStore where there is no IndexedDB', () => {
  it('lets a Node process end: the channel it listens on holds nothing open', async () => {
    // As in a jsdom or happy-dom test of a page with <try-it-console>: Node has BroadcastChannel, not IndexedDB.
    const script = `
      import { History, IdbHistoryStore } from ${JSON.stringify(new URL('../../src/core/index.ts', import.meta.url).href)};
      const history = new History({ enabled: true }, { store: new IdbHistoryStore('node'), onWarning: () => {} });
      await history.ready();
      history.add({ method: 'GET', url: 'https://api.example/', status: 200, duration: 1 });
      await history.flush();
      console.log(JSON.stringify({ size: history.size, warned: history.warning !== undefined }));
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const [code, signal] = await once(child, 'exit');
    clearTimeout(timer);
    assert.deepEqual({ code, signal, out: JSON.parse(stdout) }, { code: 0, signal: null, out: { size: 1, warned: true } });
  });
});
