/**
 * Exec credential plugins run as kubectl runs them (client-go's exec authenticator): the
 * kubeconfig's env on top of ours, KUBERNETES_EXEC_INFO (interactive or not, the cluster when
 * provideClusterInfo), the terminal only when interactiveMode allows it and there is one (else
 * stdin is empty: a plugin that prompts gets EOF instead of waiting on a pipe), the
 * ExecCredential checked (its apiVersion, a token or a certificate and key) and cached until
 * its expirationTimestamp. Every failure is a CredentialsError in kubectl's words; a plugin
 * that returns nothing usable never lets a request go out without credentials.
 */
import { spawn } from 'node:child_process';
import type { Cluster, KubeConfig, User } from '@kubernetes/client-node';
import { CredentialsError, execInteractive, type ExecConfig, type KubeUser, notInstalled, pluginTerminal } from './credentials.js';

type Authenticator = Parameters<KubeConfig['addAuthenticator']>[0];
type AuthOptions = Parameters<Authenticator['applyAuthentication']>[1] & {
  cert?: unknown;
  key?: unknown;
  headers?: Record<string, unknown>;
};

/** A plugin that runs without a terminal and has not answered after this long is stopped. */
export const EXEC_TIMEOUT_MS = 60_000;

interface ExecStatus {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  expirationTimestamp?: string;
}

function execInfo(exec: ExecConfig, interactive: boolean, cluster: Cluster | null): string {
  const spec: Record<string, unknown> = { interactive };
  if (exec.provideClusterInfo && cluster) {
    spec.cluster = {
      server: cluster.server,
      ...(cluster.tlsServerName ? { 'tls-server-name': cluster.tlsServerName } : {}),
      ...(cluster.skipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
      ...(cluster.caData ? { 'certificate-authority-data': cluster.caData } : {}),
    };
  }
  return JSON.stringify({ apiVersion: exec.apiVersion, kind: 'ExecCredential', spec });
}

/** The credential's status from the plugin's stdout, checked as client-go checks it. */
export function parseExecCredential(stdout: string, exec: ExecConfig): ExecStatus {
  let obj: { apiVersion?: string; kind?: string; status?: ExecStatus };
  try {
    obj = JSON.parse(stdout);
  } catch (err) {
    throw new Error(`decoding stdout: ${(err as Error).message}`);
  }
  if (exec.apiVersion && obj.apiVersion !== exec.apiVersion) {
    throw new Error(
      `exec plugin is configured to use API version ${exec.apiVersion}, plugin returned version ${obj.apiVersion ?? '(none)'}`,
    );
  }
  const status = obj.status;
  if (!status) throw new Error("exec plugin didn't return a status field");
  if (!status.token && (!status.clientCertificateData || !status.clientKeyData)) {
    if (status.clientCertificateData || status.clientKeyData) throw new Error('exec plugin returned only certificate or key, not both');
    throw new Error("exec plugin didn't return a token or cert/key pair");
  }
  return status;
}

/** Runs the plugin once; resolves with its credential, rejects with kubectl's message. */
function runPlugin(exec: ExecConfig, user: string, cluster: Cluster | null): Promise<ExecStatus> {
  const command = exec.command ?? '';
  const interactive = execInteractive(exec, user, pluginTerminal());
  const env: NodeJS.ProcessEnv = { ...process.env, KUBERNETES_EXEC_INFO: execInfo(exec, interactive, cluster) };
  for (const e of exec.env ?? []) env[e.name] = e.value;
  return new Promise((resolve, reject) => {
    const child = spawn(command, exec.args ?? [], {
      env,
      stdio: [interactive ? 'inherit' : 'ignore', 'pipe', interactive ? 'inherit' : 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = interactive
      ? undefined
      : setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`exec: executable ${command} did not answer within ${EXEC_TIMEOUT_MS / 1000} s`));
        }, EXEC_TIMEOUT_MS);
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new Error(err.code === 'ENOENT' ? notInstalled(command, exec.installHint) : `exec: ${err.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) {
        const last = stderr.trim().split('\n').pop();
        const how = code === null ? `was killed by ${signal}` : `failed with exit code ${code}`;
        reject(new Error(`getting credentials: exec: executable ${command} ${how}${last ? `: ${last}` : ''}`));
        return;
      }
      try {
        resolve(parseExecCredential(stdout, exec));
      } catch (err) {
        reject(new Error(`getting credentials: ${(err as Error).message}`));
      }
    });
  });
}

/**
 * The authenticator of users whose exec plugin fleetdeck runs (`execPlugin`, see KubeUser):
 * one per context's KubeConfig; concurrent requests share one run of the plugin.
 */
export class ExecPluginAuth implements Authenticator {
  private cached: { status: ExecStatus; expires: number } | undefined;
  private running: Promise<ExecStatus> | undefined;

  constructor(private readonly cluster: () => Cluster | null) {}

  isAuthProvider(user: User): boolean {
    return !!(user as KubeUser).execPlugin;
  }

  async applyAuthentication(user: User, opts: AuthOptions): Promise<void> {
    const status = await this.credential(user as KubeUser);
    if (status.clientCertificateData && status.clientKeyData) {
      opts.cert = status.clientCertificateData;
      opts.key = status.clientKeyData;
    }
    if (status.token) {
      opts.headers ??= {};
      opts.headers.Authorization = `Bearer ${status.token}`;
    }
  }

  private async credential(user: KubeUser): Promise<ExecStatus> {
    if (this.cached && this.cached.expires > Date.now()) return this.cached.status;
    this.running ??= (async () => {
      try {
        const status = await runPlugin(user.execPlugin ?? {}, user.name, this.cluster());
        const expires = status.expirationTimestamp ? Date.parse(status.expirationTimestamp) : Number.POSITIVE_INFINITY;
        this.cached = { status, expires: Number.isNaN(expires) ? 0 : expires };
        return status;
      } catch (err) {
        if (err instanceof CredentialsError) throw err;
        throw new CredentialsError(`exec plugin ${user.execPlugin?.command} of user "${user.name}": ${(err as Error).message}`, user.name);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }
}
