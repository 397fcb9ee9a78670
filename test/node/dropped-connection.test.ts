// What the proxy and the engine in Node say of a server that is up but gave no usable answer (a pure function: the
// real failures are tested against loopback servers in request-engine and proxy-streaming).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { unansweredExplanation } from '../../src/core/dropped-connection.js';

describe('unansweredExplanation', () => {
  const say = (url: string, code: string | undefined, notHttp = false) => unansweredExplanation(new URL(url), code, { notHttp, detail: code ?? 'not HTTP', server: 'the API' });

  it('asks whether https was meant only of a plain-http URL with a port written, which may be a TLS port', () => {
    assert.match(say('http://api.example:8443/x', 'ECONNRESET')!, / If the API serves https on port 8443, write https:\/\/\.$/);
    assert.equal(say('http://api.example/x', 'ECONNRESET'), 'http://api.example accepted the connection, then closed it without answering (ECONNRESET); look in the API\'s log for a failure on this request.');
    assert.doesNotMatch(say('https://api.example:8443/x', 'UND_ERR_SOCKET')!, /write https/);
  });

  it('says nothing of other failures, and that a server sent something other than HTTP when told so', () => {
    assert.equal(say('http://api.example/x', 'ECONNREFUSED'), undefined);
    assert.equal(say('http://api.example/x', undefined), undefined);
    assert.match(say('http://api.example/x', 'HPE_INVALID_CONSTANT', true)!, /^http:\/\/api\.example sent something other than a valid HTTP\/1\.1 response \(HPE_INVALID_CONSTANT\)/);
  });
});
