/**
 * What a context's user needs before any request is sent: its token file, client certificate
 * and key (files or data, and the certificate's validity), its exec credential plugin (found,
 * and able to run with or without a terminal) or its auth-provider (one client-node supports).
 * Credentials that cannot be loaded are an error naming the user and what failed, never a
 * request sent without them (the API server would take it as system:anonymous).
 */
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Cluster, KubeConfig, User } from '@kubernetes/client-node';

/** What an exec credential plugin entry of a kubeconfig user holds (kubectl's ExecConfig). */
export interface ExecConfig {
  command?: string;
  args?: string[];
  env?: { name: string; value: string }[] | null;
  apiVersion?: string;
  installHint?: string;
  provideClusterInfo?: boolean;
  interactiveMode?: 'Never' | 'IfAvailable' | 'Always';
}

/**
 * A kubeconfig user as fleetdeck keeps it: client-node's, plus what client-node leaves out or
 * handles otherwise — `tokenFile` (kubectl's field, absolute; a `token` beside it is kept as
 * `staticToken`, kubectl's fallback) and the exec plugin fleetdeck runs itself (`execPlugin`;
 * `exec` is then empty so client-node does not run it too).
 */
export type KubeUser = User & { tokenFile?: string; staticToken?: string; execPlugin?: ExecConfig };

/** The auth-provider names client-node has an implementation for. */
const SUPPORTED_AUTH_PROVIDERS = ['oidc', 'azure', 'gcp'];

/** Credentials of a context's user that cannot be loaded: one line naming the user and what failed. */
export class CredentialsError extends Error {
  override readonly name = 'CredentialsError';
  constructor(
    message: string,
    /** The kubeconfig user (or, for a certificate authority, the cluster) the message is about. */
    readonly user: string,
    /** What to do, when something better than "fix the user in the kubeconfig" can be said. */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** Is `err` a {@link CredentialsError} (also across bundle chunks)? */
export function isCredentialsError(err: unknown): err is CredentialsError {
  return err instanceof CredentialsError || (err as Error | undefined)?.name === 'CredentialsError';
}

/** Is standard input a terminal an interactive exec plugin could use? Replaceable (the dashboard keeps its terminal). */
let terminalForPlugins = (): boolean => process.stdin.isTTY === true;
let noTerminal = 'standard input is not a terminal';

/** `why`: how to say there is none (the dashboard: it draws on the terminal and reads its keys). */
export function setPluginTerminal(available: () => boolean, why = 'standard input is not a terminal'): void {
  terminalForPlugins = available;
  noTerminal = why;
}

export function pluginTerminal(): boolean {
  return terminalForPlugins();
}

/** The reason of a failed file read, as kubectl (Go) says it: "open /x: no such file or directory". */
export function openError(file: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const why =
    code === 'ENOENT'
      ? 'no such file or directory'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'is a directory'
          : ((err as Error | undefined)?.message ?? String(err));
  return `open ${file}: ${why}`;
}

function readFile(file: string): Buffer | { error: string } {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    return { error: openError(file, err) };
  }
}

const isoSeconds = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The client certificate's validity against `now`: undefined when fine. */
function certificateProblem(pem: Buffer, user: string, now: number): string | undefined {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(pem);
  } catch {
    return `client certificate of user "${user}" is not a PEM certificate`;
  }
  const from = new Date(cert.validFrom);
  const to = new Date(cert.validTo);
  if (to.getTime() < now) return `client certificate of user "${user}" expired on ${isoSeconds(to)}`;
  if (from.getTime() > now) return `client certificate of user "${user}" is not valid before ${isoSeconds(from)}`;
  return undefined;
}

/** The client certificate and key: both or neither, readable, the certificate valid now. */
function clientCertProblem(u: KubeUser, now: number): string | undefined {
  const hasCert = !!(u.certFile || u.certData);
  const hasKey = !!(u.keyFile || u.keyData);
  if (hasCert && !hasKey) {
    return `user "${u.name}" has a client certificate but no key: client-key-data or client-key must be specified for ${u.name} to use the clientCert authentication method`;
  }
  if (hasKey && !hasCert) {
    return `user "${u.name}" has a client key but no certificate: client-certificate-data or client-certificate must be specified for ${u.name} to use the clientCert authentication method`;
  }
  if (!hasCert) return undefined;
  let cert: Buffer;
  if (u.certFile) {
    const read = readFile(u.certFile);
    if (!Buffer.isBuffer(read)) return `cannot read the client certificate of user "${u.name}": ${read.error}`;
    cert = read;
  } else {
    cert = Buffer.from(u.certData ?? '', 'base64');
  }
  if (u.keyFile) {
    const read = readFile(u.keyFile);
    if (!Buffer.isBuffer(read)) return `cannot read the client key of user "${u.name}": ${read.error}`;
  }
  return certificateProblem(cert, u.name, now);
}

/** Where `command` would be run from: itself when it names a path, else the first match on PATH. */
export function findExecutable(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const runnable = (f: string) => {
    try {
      fs.accessSync(f, fs.constants.X_OK);
      return fs.statSync(f).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes('/')) return runnable(command) ? command : undefined;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const f = path.join(dir, command);
    if (runnable(f)) return f;
  }
  return undefined;
}

/** kubectl's words for a plugin that is not installed, on one line, with the kubeconfig's installHint. */
export function notInstalled(command: string, installHint: string | undefined): string {
  const hint = installHint?.trim().replace(/\s*\n\s*/g, ' ');
  return (
    `getting credentials: exec: executable ${command} not found; ` +
    `it looks like you are trying to use a client-go credential plugin that is not installed${hint ? ` (${hint})` : ''}`
  );
}

/** Will the plugin get the terminal? Throws kubectl's errors for a mode that cannot be honoured. */
export function execInteractive(exec: ExecConfig, user: string, terminal: boolean): boolean {
  const mode = exec.interactiveMode ?? (exec.apiVersion === 'client.authentication.k8s.io/v1' ? undefined : 'IfAvailable');
  if (mode === undefined) {
    throw new CredentialsError(
      `exec plugin of user "${user}": interactiveMode must be specified for ${user} to use exec authentication plugin`,
      user,
    );
  }
  if (mode === 'Always' && !terminal) {
    throw new CredentialsError(
      `exec plugin ${exec.command} of user "${user}" (interactiveMode Always) cannot run: exec plugin cannot support interactive mode: ${noTerminal}`,
      user,
      `run a command that can prompt in a terminal (e.g. kubectl get --raw /version for this context) to log in first, or set interactiveMode to IfAvailable for user "${user}"`,
    );
  }
  return mode !== 'Never' && terminal;
}

function execProblem(u: KubeUser, exec: ExecConfig, terminal: boolean): CredentialsError | undefined {
  if (!exec.command) return new CredentialsError(`exec plugin of user "${u.name}" has no command`, u.name);
  if (!findExecutable(exec.command)) {
    return new CredentialsError(
      `exec plugin of user "${u.name}": ${notInstalled(exec.command, exec.installHint)}`,
      u.name,
      `install ${exec.command}, the credential plugin of user "${u.name}"${exec.installHint ? ' (as its installHint above says)' : ', or put it on PATH'}, or fix the command in the kubeconfig`,
    );
  }
  try {
    execInteractive(exec, u.name, terminal);
  } catch (err) {
    return err as CredentialsError;
  }
  return undefined;
}

function authProviderProblem(u: KubeUser): string | undefined {
  const ap = u.authProvider as { name?: string; config?: Record<string, unknown> } | undefined;
  if (!ap) return undefined;
  if (ap.config?.exec || ap.config?.tokenFile) return undefined;
  if (!ap.name) return `auth-provider of user "${u.name}" has no name`;
  if (SUPPORTED_AUTH_PROVIDERS.includes(ap.name)) return undefined;
  return `auth-provider "${ap.name}" of user "${u.name}" is not supported: no Auth Provider found for name "${ap.name}"`;
}

function tokenFileProblem(u: KubeUser): string | undefined {
  if (!u.tokenFile || u.token || u.staticToken) return undefined;
  const read = readFile(u.tokenFile);
  return Buffer.isBuffer(read) ? undefined : `cannot read the token file of user "${u.name}": ${read.error}`;
}

function caProblem(c: Cluster | null): string | undefined {
  if (!c?.caFile) return undefined;
  const read = readFile(c.caFile);
  return Buffer.isBuffer(read) ? undefined : `cannot read the certificate authority of cluster "${c.name}": ${read.error}`;
}

/**
 * What keeps the current context of `kc` (one context: see configForContext) from loading its
 * credentials, or undefined when they can be loaded. Reads files, never runs the exec plugin.
 */
export function credentialsProblem(kc: KubeConfig, opts: { now?: number; terminal?: boolean } = {}): CredentialsError | undefined {
  const u = kc.getCurrentUser() as KubeUser | null;
  const ca = caProblem(kc.getCurrentCluster());
  if (ca) return new CredentialsError(ca, kc.getCurrentCluster()?.name ?? '');
  if (!u) return undefined;
  const exec = u.execPlugin ?? (u.exec as ExecConfig | undefined);
  if (exec) {
    const problem = execProblem(u, exec, opts.terminal ?? pluginTerminal());
    if (problem) return problem;
  }
  const line = authProviderProblem(u) ?? tokenFileProblem(u) ?? clientCertProblem(u, opts.now ?? Date.now());
  return line ? new CredentialsError(line, u.name) : undefined;
}

/** Throws the {@link CredentialsError} of {@link credentialsProblem}, if any. */
export function assertCredentials(kc: KubeConfig): void {
  const problem = credentialsProblem(kc);
  if (problem) throw problem;
}

/** Any failure while loading the credentials (a file read, the plugin), as a CredentialsError naming the user. */
export function asCredentialsError(kc: KubeConfig, err: unknown): CredentialsError {
  if (isCredentialsError(err)) return err;
  const user = kc.getCurrentUser()?.name ?? '';
  const why = (err instanceof Error ? err.message : String(err)).split('\n')[0] || 'unknown error';
  return new CredentialsError(`credentials of user "${user}" cannot be loaded: ${why}`, user);
}
