import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { describeError, statusCode } from '../../src/kube/client.js';

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
});
