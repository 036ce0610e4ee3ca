import { describe, expect, it } from 'vitest';
import { podState, slimPod } from '../../../src/kube/pods/pods.js';
import { decodeSlimPod } from '../../../src/kube/protobuf/pod.js';
import { encode, type Field } from '../../helpers/objects/protobuf-encode.js';

const time = (iso: string): Field[] => [[1, Date.parse(iso) / 1000]];

/** A pod in protobuf with fields fleetdeck does not read around the ones it does. */
function pod(
  status: Field[],
  spec: Field[] = [
    [
      2,
      [
        [1, 'app'],
        [2, 'img:1'],
        [3, 'sleep'],
      ],
    ],
    [10, 'node-1'],
  ],
): Buffer {
  return encode([
    [
      1,
      [
        [1, 'web-1'],
        [3, 'shop'],
        [5, 'uid-1'],
        [6, '99'],
        [8, time('2026-11-26T10:00:00Z')],
        [17, [[1, 'kubelet']]],
      ],
    ],
    [2, spec],
    [3, status],
  ]);
}

describe('decodeSlimPod', () => {
  it('reads what slimPod keeps of a running pod', () => {
    const p = decodeSlimPod(
      pod([
        [1, 'Running'],
        [
          2,
          [
            [1, 'Ready'],
            [2, 'True'],
          ],
        ],
        [
          2,
          [
            [1, 'ContainersReady'],
            [2, 'True'],
          ],
        ],
        [5, '10.0.0.1'],
        [
          8,
          [
            [1, 'app'],
            [2, [[2, [[1, time('2026-11-26T10:00:05Z')]]]]],
            [4, true],
            [5, 3],
            [6, 'img:1'],
            [9, true],
          ],
        ],
      ]),
    );
    expect(p).toEqual(
      slimPod({
        metadata: { name: 'web-1', namespace: 'shop', uid: 'uid-1', creationTimestamp: new Date('2026-11-26T10:00:00Z') },
        spec: { containers: [{ name: 'app' }], nodeName: 'node-1' },
        status: {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True' }],
          containerStatuses: [{ name: 'app', image: '', imageID: '', ready: true, restartCount: 3, started: true, state: { running: {} } }],
        },
      }),
    );
  });

  it('gives podState the same verdict as the JSON path for a crash loop, an init failure and a deletion', () => {
    const crash = pod([
      [1, 'Running'],
      [4, ''],
      [
        2,
        [
          [1, 'Ready'],
          [2, 'False'],
          [5, 'ContainersNotReady'],
          [6, 'not ready'],
        ],
      ],
      [
        8,
        [
          [1, 'app'],
          [
            2,
            [
              [
                1,
                [
                  [1, 'CrashLoopBackOff'],
                  [2, 'back-off'],
                ],
              ],
            ],
          ],
          [5, 7],
        ],
      ],
    ]);
    expect(podState(decodeSlimPod(crash))).toMatchObject({
      phase: 'Running',
      problem: { reason: 'CrashLoopBackOff', restarts: 7, node: 'node-1' },
    });
    const init = pod(
      [
        [1, 'Pending'],
        [
          10,
          [
            [1, 'setup'],
            [
              2,
              [
                [
                  3,
                  [
                    [1, -1],
                    [3, 'Error'],
                  ],
                ],
              ],
            ],
            [5, 1],
          ],
        ],
      ],
      [
        [20, [[1, 'setup']]],
        [2, [[1, 'app']]],
      ],
    );
    expect(podState(decodeSlimPod(init)).problem?.reason).toBe('Init:Error');
    const signal = pod([
      [1, 'Running'],
      [
        8,
        [
          [1, 'app'],
          [
            2,
            [
              [
                3,
                [
                  [1, -1],
                  [2, 9],
                ],
              ],
            ],
          ],
        ],
      ],
    ]);
    expect(decodeSlimPod(signal).status?.containerStatuses?.[0]?.state?.terminated).toEqual({ exitCode: -1, signal: 9 });
    const deleting = encode([
      [
        1,
        [
          [1, 'x'],
          [9, time('2026-11-26T11:00:00Z')],
        ],
      ],
      [3, [[1, 'Running']]],
    ]);
    expect(podState(decodeSlimPod(deleting)).problem?.reason).toBe('Terminating');
  });
});
