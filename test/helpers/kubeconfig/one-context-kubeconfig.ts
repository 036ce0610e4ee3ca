import fs from 'node:fs';
import path from 'node:path';

/** Writes, in `dir`, a kubeconfig whose one context `c` reaches `server` with a token, trusting `caPem`; returns its path. */
export function oneContextKubeconfig(dir: string, server: string, caPem: string): string {
  const file = path.join(dir, `config-${server.replace(/\W/g, '')}`);
  const caData = Buffer.from(caPem).toString('base64');
  fs.writeFileSync(
    file,
    `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "${server}", certificate-authority-data: ${caData}}
users:
- name: u
  user: {token: not-a-secret}
contexts:
- name: c
  context: {cluster: c, user: u}
current-context: c
`,
  );
  return file;
}
