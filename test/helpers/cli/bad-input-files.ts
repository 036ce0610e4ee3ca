import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import forge from 'node-forge';
import { parse, stringify } from 'yaml';

/** The files and servers the bad-input corpus points fleetdeck at. */
export interface BadInputFiles {
  dir: string;
  /** The sandbox's admin kubeconfig (every context works). */
  good: string;
  notYaml: string;
  empty: string;
  aList: string;
  missingUser: string;
  missingCluster: string;
  /**
   * One context per broken credential or transport, each on the kind-workload-1 API server:
   * token-file-missing, exec-missing, exec-interactive, auth-provider, cert-expired,
   * key-file-missing, refused (port 1), bad-port (a blocked fetch port, nothing listening),
   * untrusted (another CA), silent (accepts connections, never answers).
   */
  broken: string;
  fleetNotYaml: string;
  fleetWrongShape: string;
  catalogueNotYaml: string;
  rolloutNotYaml: string;
  existingValues: string;
  close(): Promise<void>;
}

type KubeconfigDoc = {
  clusters: { name: string; cluster: Record<string, unknown> }[];
  users: { name: string; user: Record<string, unknown> }[];
  contexts: { name: string; context: { cluster: string; user: string } }[];
};

function write(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text, { mode: 0o600 });
  return file;
}

/** A client certificate signed by the sandbox CA whose validity ended yesterday. */
function expiredClientCert(caDir: string): { cert: string; key: string } {
  const ca = forge.pki.certificateFromPem(fs.readFileSync(path.join(caDir, 'ca.crt'), 'utf8'));
  const caKey = forge.pki.privateKeyFromPem(fs.readFileSync(path.join(caDir, 'ca.key'), 'utf8'));
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '0a1b2c';
  cert.validity.notBefore = new Date(Date.now() - 10 * 86_400_000);
  cert.validity.notAfter = new Date(Date.now() - 86_400_000);
  cert.setSubject([
    { name: 'organizationName', value: 'system:masters' },
    { name: 'commonName', value: 'expired-admin' },
  ]);
  cert.setIssuer(ca.subject.attributes);
  cert.sign(caKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: forge.pki.privateKeyToPem(keys.privateKey) };
}

/** A TCP server that accepts connections and never says a word. */
function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A port in fetch's blocked list that nothing listens on. */
async function freeBlockedPort(): Promise<number> {
  for (const port of [6666, 6667, 6668, 6669, 6665, 6000, 10080]) {
    const free = await new Promise<boolean>((resolve) => {
      const s = net.createServer().once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no blocked port is free');
}

export async function badInputFiles(dir: string, sandboxKubeconfig: string, sandboxDir: string): Promise<BadInputFiles> {
  const doc = parse(fs.readFileSync(sandboxKubeconfig, 'utf8')) as KubeconfigDoc;
  const w1 = doc.clusters.find((c) => c.name === 'kind-workload-1');
  if (!w1) throw new Error('the sandbox kubeconfig has no kind-workload-1');
  const silent = await silentServer();
  const blocked = await freeBlockedPort();
  const expired = expiredClientCert(path.join(sandboxDir, 'clusters', 'workload-1', 'pki'));
  const otherCa = forge.pki.certificateToPem(otherAuthority());
  const server = String(w1.cluster.server);
  const ca = w1.cluster['certificate-authority-data'];
  const clusters = [
    { name: 'w1', cluster: { server, 'certificate-authority-data': ca } },
    { name: 'refused', cluster: { server: 'https://127.0.0.1:1', 'certificate-authority-data': ca } },
    { name: 'bad-port', cluster: { server: `https://127.0.0.1:${blocked}`, 'certificate-authority-data': ca } },
    { name: 'silent', cluster: { server: `https://127.0.0.1:${silent.port}`, 'certificate-authority-data': ca } },
    { name: 'untrusted', cluster: { server, 'certificate-authority-data': Buffer.from(otherCa).toString('base64') } },
  ];
  const admin = doc.users.find((u) => u.name === 'kind-workload-1-admin')?.user ?? {};
  const users = [
    { name: 'admin', user: admin },
    { name: 'token-file-missing', user: { tokenFile: path.join(dir, 'no-such-token') } },
    { name: 'exec-missing', user: { exec: execOf('fleetdeck-no-such-plugin', { installHint: 'install it from the plugin vendor' }) } },
    { name: 'exec-interactive', user: { exec: execOf(process.execPath, { interactiveMode: 'Always', args: ['-e', ''] }) } },
    { name: 'auth-provider', user: { 'auth-provider': { name: 'no-such-provider', config: {} } } },
    {
      name: 'cert-expired',
      user: {
        'client-certificate-data': Buffer.from(expired.cert).toString('base64'),
        'client-key-data': Buffer.from(expired.key).toString('base64'),
      },
    },
    {
      name: 'key-file-missing',
      user: { 'client-certificate-data': admin['client-certificate-data'], 'client-key': path.join(dir, 'no-such.key') },
    },
  ];
  const ctx = (name: string, cluster: string, user: string) => ({ name, context: { cluster, user } });
  const contexts = [
    ...users.filter((u) => u.name !== 'admin').map((u) => ctx(u.name, 'w1', u.name)),
    ...clusters.filter((c) => c.name !== 'w1').map((c) => ctx(c.name, c.name, 'admin')),
  ];
  const kubeconfig = (body: object) => stringify({ apiVersion: 'v1', kind: 'Config', ...body });
  const good = contexts[0]?.name ?? '';
  return {
    dir,
    good: sandboxKubeconfig,
    notYaml: write(dir, 'not-yaml.kubeconfig', 'clusters: [ {name: a\n  users: :\n\t- x'),
    empty: write(dir, 'empty.kubeconfig', ''),
    aList: write(dir, 'list.kubeconfig', '- one\n- two\n'),
    missingUser: write(
      dir,
      'missing-user.kubeconfig',
      kubeconfig({ clusters, users: [], contexts: [ctx('c', 'w1', 'ghost')], 'current-context': 'c' }),
    ),
    missingCluster: write(
      dir,
      'missing-cluster.kubeconfig',
      kubeconfig({ clusters: [], users, contexts: [ctx('c', 'nowhere', 'admin')], 'current-context': 'c' }),
    ),
    broken: write(dir, 'broken.kubeconfig', kubeconfig({ clusters, users, contexts, 'current-context': good })),
    fleetNotYaml: write(dir, 'fleet-not-yaml.yaml', 'hostingContext: [kind-cp\n'),
    fleetWrongShape: write(dir, 'fleet-wrong-shape.yaml', 'hostingContext: 5\nworkloads: kind-workload-1\n'),
    catalogueNotYaml: write(dir, 'catalogue.yaml', 'features: [ {name: x\n'),
    rolloutNotYaml: write(dir, 'rollout.yaml', 'apiVersion: [\n'),
    existingValues: write(dir, 'values.yaml', 'keep: me\n'),
    close: () => silent.close(),
  };
}

function execOf(command: string, extra: Record<string, unknown>) {
  return { apiVersion: 'client.authentication.k8s.io/v1', command, args: [], interactiveMode: 'Never', ...extra };
}

/** A CA nobody's server uses: a kubeconfig trusting only it cannot verify the sandbox's server. */
function otherAuthority(): forge.pki.Certificate {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  const subject = [{ name: 'commonName', value: 'some-other-ca' }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([{ name: 'basicConstraints', cA: true }]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return cert;
}
