import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { LOCAL_API_SOCKET } from '../api/runtime';
import { askRunningServer } from './local-api';

describe('askRunningServer', () => {
  it('waits for a server still starting: asked before its socket is open, it is answered once it is', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-local-api-'));
    const server = createServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ asked: `${request.method} ${request.url}`, token: request.headers.authorization }));
    });
    const answer = askRunningServer(
      { DATA_DIR: dataDir, API_SERVICE_TOKEN: 'token' },
      { method: 'GET', path: '/api/admin/backtest?days=7' },
    );
    // The first try has met no socket (it is not there yet) before the server opens it.
    await setTimeout(100);
    await new Promise<void>((resolve) => server.listen(join(dataDir, LOCAL_API_SOCKET), resolve));
    try {
      expect(await answer).toEqual({ asked: 'GET /api/admin/backtest?days=7', token: 'Bearer token' });
    } finally {
      server.close();
    }
  });
});
