import { describe, expect, it } from 'vitest';
import { decodeStatus } from '../../../src/kube/protobuf/status.js';
import { encode } from '../../helpers/objects/protobuf-encode.js';

describe('decodeStatus', () => {
  it('reads a 403 Status the API server sent in protobuf', () => {
    const status = encode([
      [1, []],
      [2, 'Failure'],
      [3, 'pods is forbidden: User "nobody" cannot list resource "pods" in API group "" at the cluster scope'],
      [4, 'Forbidden'],
      [5, [[2, 'pods']]],
      [6, 403],
    ]);
    const body = Buffer.concat([
      Buffer.from([0x6b, 0x38, 0x73, 0x00]),
      encode([
        [
          1,
          [
            [1, 'v1'],
            [2, 'Status'],
          ],
        ],
        [2, status],
      ]),
    ]);
    expect(decodeStatus(body)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      message: 'pods is forbidden: User "nobody" cannot list resource "pods" in API group "" at the cluster scope',
      reason: 'Forbidden',
      code: 403,
    });
  });

  it('leaves what is not a Kubernetes protobuf object alone', () => {
    expect(decodeStatus(Buffer.from('{"kind":"Status","code":403}'))).toBeUndefined();
    expect(decodeStatus(Buffer.from([0x6b, 0x38, 0x73, 0x00]))).toBeUndefined();
  });
});
