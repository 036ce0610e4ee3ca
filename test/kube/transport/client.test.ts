import { ApiException, KubeConfig, type Configuration } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { DescribedError, describeError, lazyClient, statusCode } from '../../../src/kube/transport/client.js';

describe('describeError', () => {
  it('turns API errors into one line with the server message', () => {
    const err = new ApiException(
      403,
      'Forbidden',
      JSON.stringify({ kind: 'Status', message: 'nodes is forbidden: User "x" cannot list resource "nodes"' }),
      {},
    );
    expect(statusCode(err)).toBe(403);
    expect(describeError(err)).toBe('HTTP 403: nodes is forbidden: User "x" cannot list resource "nodes"');
  });
  it('names network failures the way operators say them', () => {
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
    });
    expect(describeError(refused)).toBe('connection refused');
    const tls = new TypeError('fetch failed', {
      cause: Object.assign(new Error('unable to verify'), { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }),
    });
    expect(describeError(tls)).toBe('TLS: certificate signed by an unknown authority');
    expect(describeError(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))).toBe('timed out');
    expect(describeError(new Error('first\nsecond'))).toBe('first');
  });
  it("keeps a described failure's words and its HTTP status, so callers that branch on the status still can", () => {
    const api = new ApiException(404, 'Not Found', '', {});
    const err = new DescribedError('cannot list clusters.cluster.elotl.co: HTTP 404', 404, api);
    expect(describeError(err)).toBe('cannot list clusters.cluster.elotl.co: HTTP 404');
    expect(statusCode(err)).toBe(404);
    expect(err.cause).toBe(api);
    expect(statusCode(new DescribedError('cannot list pods: connection refused', undefined, new Error('x')))).toBeUndefined();
  });
});

describe('lazyClient', () => {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:6443' }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  class FakeApi {
    constructor(readonly config: Configuration) {}
    async readThing(args: { name: string }): Promise<string> {
      return `read ${args.name} at ${this.config.baseServer.makeRequestContext('/x', 'GET' as never).getUrl()}`;
    }
  }

  it('loads the API class on the first call only, and forwards arguments and results', async () => {
    let loads = 0;
    const api = lazyClient<FakeApi>(kc, async () => {
      loads++;
      return FakeApi;
    });
    expect(loads).toBe(0);
    expect(await api.readThing({ name: 'a' })).toBe('read a at https://127.0.0.1:6443/x');
    expect(await api.readThing({ name: 'b' })).toBe('read b at https://127.0.0.1:6443/x');
    expect(loads).toBe(1);
  });

  it('is not a thenable: awaiting the client itself does not call the API', async () => {
    let loads = 0;
    const api = lazyClient<FakeApi>(kc, async () => {
      loads++;
      return FakeApi;
    });
    expect(await Promise.resolve(api)).toBe(api);
    expect(loads).toBe(0);
  });
});
