import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { annotateForReplacement, sandboxSession } from '../../src/commands/sandbox.js';
import { ReadOnlyRefusal } from '../../src/kube/transport/gate.js';
import type { SandboxState } from '../../src/sandbox/state.js';
import { writeUnreachableKubeconfig } from '../helpers/kubeconfig/fake-contexts.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-sandbox-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
// Its server is a closed port: a request sent would fail as "connection refused", not as the gate's refusal.
const kubeconfig = writeUnreachableKubeconfig(path.join(dir, 'kubeconfig'), ['kind-workload-1']);
const state = { kubeconfig, clusters: [{ context: 'kind-workload-1' }] } as unknown as SandboxState;

describe('annotateForReplacement', () => {
  it("is refused with --read-only by the session's write gate, before anything is read", async () => {
    const refused = annotateForReplacement(state, sandboxSession(state, { readOnly: true }));
    await expect(refused).rejects.toBeInstanceOf(ReadOnlyRefusal);
    await expect(refused).rejects.toThrow(/--replace-drained .* is refused with --read-only/);
  });

  it("reaches the sandbox's clusters through the session's clients otherwise", async () => {
    await expect(annotateForReplacement(state, sandboxSession(state, {}))).rejects.toThrow(
      /^kind-workload-1: cannot annotate the nodes for replacement: .*connection refused/,
    );
  });
});
