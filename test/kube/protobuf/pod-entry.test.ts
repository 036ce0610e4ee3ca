import { describe, expect, it } from 'vitest';
import { podEntry } from '../../../src/kube/pods/pods.js';
import { decodePodEntry } from '../../../src/kube/protobuf/pod-entry.js';
import { decodeSlimPod } from '../../../src/kube/protobuf/pod.js';
import { encode, type Field } from '../../helpers/objects/protobuf-encode.js';

const time = (iso: string): Field[] => [[1, Date.parse(iso) / 1000]];
const condition = (type: string, status: string): Field => [
  2,
  [
    [1, type],
    [2, status],
    [3, [[1, 1]]],
  ],
];

/** A pod in protobuf: metadata (with fields around the ones read), a container, and `status`. */
function pod(status: Field[], meta: Field[] = []): Buffer {
  return encode([
    [1, [[1, 'web-1'], [3, 'shop'], [5, 'uid-1'], [8, time('2026-11-26T10:00:00Z')], [17, [[1, 'kubelet']]], ...meta]],
    [
      2,
      [
        [2, [[1, 'app']]],
        [10, 'node-1'],
      ],
    ],
    [3, status],
  ]);
}

/** What the whole decode and podState make of the same bytes. */
const slow = (buf: Buffer) => podEntry(decodeSlimPod(buf));

describe('decodePodEntry', () => {
  it('a Running pod whose Ready condition is True: its uid and the shared healthy state', () => {
    const buf = pod([[1, 'Running'], condition('PodScheduled', 'True'), condition('Ready', 'True'), [5, '10.0.0.1']]);
    const entry = decodePodEntry(buf);
    expect(entry).toEqual({ key: 'uid-1', state: { phase: 'Running' } });
    expect(entry).toEqual(slow(buf));
    // The one shared record, as the tracker keeps for every healthy pod.
    expect(entry.state).toBe(slow(buf).state);
  });

  it('a Succeeded pod needs no attention, even while it is deleted', () => {
    const buf = pod([[1, 'Succeeded']], [[9, time('2026-11-26T11:00:00Z')]]);
    expect(decodePodEntry(buf)).toEqual({ key: 'uid-1', state: { phase: 'Succeeded' } });
    expect(decodePodEntry(buf)).toEqual(slow(buf));
  });

  it('every other pod gets the verdict of the whole decode: not ready, deleted, pending, failed, no uid', () => {
    const cases: Buffer[] = [
      pod([[1, 'Running'], condition('Ready', 'False')]),
      pod([[1, 'Running']]),
      pod([[1, 'Running'], condition('Ready', 'True')], [[9, time('2026-11-26T11:00:00Z')]]),
      pod([[1, 'Pending'], condition('PodScheduled', 'False')]),
      pod([
        [1, 'Failed'],
        [4, 'Evicted'],
      ]),
      pod([[1, 'Runnin']]),
      encode([
        [
          1,
          [
            [1, 'no-uid'],
            [3, 'shop'],
          ],
        ],
        [3, [[1, 'Running'], condition('Ready', 'True')]],
      ]),
    ];
    const reasons = cases.map((buf) => {
      const entry = decodePodEntry(buf);
      expect(entry).toEqual(slow(buf));
      return entry.state.problem?.reason;
    });
    expect(reasons).toEqual(['NotReady (0/1 ready)', 'NotReady (0/1 ready)', 'Terminating', 'Pending', 'Evicted', 'Unknown', undefined]);
  });
});
