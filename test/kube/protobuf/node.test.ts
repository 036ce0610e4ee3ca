import { describe, expect, it } from 'vitest';
import { summarizeNode } from '../../../src/kube/nodes/nodes.js';
import { decodeNode } from '../../../src/kube/protobuf/node.js';
import { encode, type Field } from '../../helpers/objects/protobuf-encode.js';

const label = (k: string, v: string): Field => [
  11,
  [
    [1, k],
    [2, v],
  ],
];

function node(ready: Field[], unschedulable: boolean): Buffer {
  return encode([
    [
      1,
      [
        [1, 'worker-1'],
        [5, 'uid-9'],
        [6, '77'],
        [8, [[1, Date.parse('2026-11-20T08:00:00Z') / 1000]]],
        label('node-role.kubernetes.io/worker', ''),
        label('topology.kubernetes.io/zone', 'eu-1a'),
        [
          12,
          [
            [1, 'note'],
            [2, 'ignored'],
          ],
        ],
      ],
    ],
    [
      2,
      [
        [1, '10.0.0.0/24'],
        [4, unschedulable],
      ],
    ],
    [
      3,
      [
        [
          4,
          [
            [1, 'MemoryPressure'],
            [2, 'False'],
          ],
        ],
        [4, ready],
        [
          5,
          [
            [1, 'InternalIP'],
            [2, '10.0.0.5'],
          ],
        ],
        [
          7,
          [
            [1, 'machine'],
            [7, 'v1.20.2'],
            [8, 'v1.20.2'],
          ],
        ],
        [8, [[1, 'image-a']]],
      ],
    ],
  ]);
}

describe('decodeNode', () => {
  it('gives summarizeNode what the JSON Node gives it', () => {
    const json = {
      metadata: {
        name: 'worker-1',
        uid: 'uid-9',
        creationTimestamp: new Date('2026-11-20T08:00:00Z'),
        labels: { 'node-role.kubernetes.io/worker': '', 'topology.kubernetes.io/zone': 'eu-1a' },
      },
      spec: { unschedulable: true },
      status: {
        conditions: [
          { type: 'MemoryPressure', status: 'False' },
          { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'PLEG is not healthy' },
        ],
        nodeInfo: { kubeletVersion: 'v1.20.2' } as never,
      },
    };
    const decoded = summarizeNode(
      decodeNode(
        node(
          [
            [1, 'Ready'],
            [2, 'False'],
            [5, 'KubeletNotReady'],
            [6, 'PLEG is not healthy'],
          ],
          true,
        ),
      ),
    );
    expect(decoded).toEqual(summarizeNode(json));
    expect(decoded).toMatchObject({
      roles: ['worker'],
      zone: 'eu-1a',
      unschedulable: true,
      notReadyReason: 'KubeletNotReady: PLEG is not healthy',
    });
  });

  it('a Ready, schedulable node', () => {
    expect(
      summarizeNode(
        decodeNode(
          node(
            [
              [1, 'Ready'],
              [2, 'True'],
            ],
            false,
          ),
        ),
      ),
    ).toMatchObject({ ready: true, unschedulable: false, kubeletVersion: 'v1.20.2' });
  });
});
