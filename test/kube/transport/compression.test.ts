import fs from 'node:fs';
import https from 'node:https';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeJsonClient } from '../../../src/kube/transport/client.js';
import { compressionDisabled } from '../../../src/kube/transport/compression.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { createAuthority, issueCertificate } from '../../../src/kube/certs/pki.js';

/** kubectl's `disable-compression` (client-go ≥ 1.26): the answers of that cluster are not asked for gzipped. */
describe('a cluster with disable-compression: true', () => {
  const seen: (string | undefined)[] = [];
  let server: https.Server;
  let file = '';

  beforeAll(async () => {
    const ca = await createAuthority('compression-ca', 1);
    const leaf = await issueCertificate(ca, { commonName: 'api', hosts: ['127.0.0.1'], usage: 'server', days: 1 });
    server = https.createServer({ cert: leaf.certPem, key: leaf.keyPem }, (req, res) => {
      seen.push(req.headers['accept-encoding']);
      res.setHeader('content-type', 'application/json');
      res.end('{"major":"1","minor":"33","gitVersion":"v1.33.0"}');
    });
    const port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
    );
    const caData = Buffer.from(ca.certPem).toString('base64');
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fd-compression-')), 'config');
    fs.writeFileSync(
      file,
      `apiVersion: v1
kind: Config
clusters:
- name: near
  cluster: {server: "https://127.0.0.1:${port}", certificate-authority-data: ${caData}, disable-compression: true}
- name: far
  cluster: {server: "https://127.0.0.1:${port}", certificate-authority-data: ${caData}}
users:
- name: u
  user: {token: not-a-secret}
contexts:
- name: near
  context: {cluster: near, user: u}
- name: far
  context: {cluster: far, user: u}
current-context: far
`,
    );
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('is read from the kubeconfig for its contexts only', () => {
    const { config } = loadKubeconfig({ kubeconfig: file });
    expect(compressionDisabled(configForContext(config, 'near'))).toBe(true);
    expect(compressionDisabled(configForContext(config, 'far'))).toBe(false);
  });

  it('asks that server for answers as they are (identity); every other cluster for gzip', async () => {
    const { config } = loadKubeconfig({ kubeconfig: file });
    await makeJsonClient(configForContext(config, 'near')).get('/version');
    await makeJsonClient(configForContext(config, 'far')).get('/version');
    expect(seen).toEqual(['identity', 'gzip']);
  });
});
