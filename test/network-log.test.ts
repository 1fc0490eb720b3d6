// The request log says what the server answered (issue 42): a fetch answered 404 whose body the
// page never read ends, for the browser, as net::ERR_ABORTED after its status came; the console
// says "the server responded with a status of 404", and so must the log. The failure alone is
// shown only when no answer came.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NetworkLog, failed, renderRequest } from '../src/tools/logs/requests.js';

test('a request answered 404, then aborted, is listed with its status; one never answered with its failure', () => {
  const log = new NetworkLog();
  log.sent('a', { method: 'GET', url: 'http://127.0.0.1/api/missing', type: 'fetch' }, false);
  log.answered('a', 404);
  log.failed('a', 'net::ERR_ABORTED');
  log.sent('b', { method: 'GET', url: 'http://127.0.0.1/api/down', type: 'fetch' }, false);
  log.failed('b', 'net::ERR_CONNECTION_REFUSED');
  log.sent('c', { method: 'GET', url: 'http://127.0.0.1/api/slow', type: 'xhr' }, false);
  const [answered, refused, pending] = log.entries;
  assert.equal(renderRequest(answered), 'GET http://127.0.0.1/api/missing → 404 (fetch)');
  assert.equal(renderRequest(refused), 'GET http://127.0.0.1/api/down → net::ERR_CONNECTION_REFUSED (fetch)');
  assert.equal(renderRequest(pending), 'GET http://127.0.0.1/api/slow → pending (xhr)');
  assert.ok(failed(answered) && failed(refused) && !failed(pending));
});
