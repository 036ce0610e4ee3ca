/**
 * The KubeConfig of one context (see configForContext): client-node's, except that its
 * credentials are checked before every request and every connection (credentials.ts), a
 * failure to load them is a CredentialsError, the user's `tokenFile` is read (client-node
 * ignores kubectl's field and would send the request anonymously) and its exec plugin runs as
 * kubectl runs it (exec-plugin.ts). Watches, lists and the probes all pass through here.
 */
import fs from 'node:fs';
import type { User } from '@kubernetes/client-node';
import { KubeConfig } from '../transport/client-node.js';
import {
  asCredentialsError,
  assertCredentials,
  CredentialsError,
  type ExecConfig,
  type KubeUser,
  openError,
} from '../transport/credentials.js';
import { ExecPluginAuth } from '../transport/exec-plugin.js';

type Authenticator = Parameters<KubeConfig['addAuthenticator']>[0];
type AuthOptions = Parameters<Authenticator['applyAuthentication']>[1] & { headers?: Record<string, unknown> };

/**
 * kubectl's tokenFile: read for every request (a rotated token is picked up), and when it
 * cannot be read the static `token` (kubectl's fallback) or else a CredentialsError.
 */
class TokenFileAuth implements Authenticator {
  isAuthProvider(user: User): boolean {
    return !!(user as KubeUser).tokenFile;
  }

  async applyAuthentication(user: User, opts: AuthOptions): Promise<void> {
    const u = user as KubeUser;
    let token = u.staticToken;
    try {
      token = fs.readFileSync(u.tokenFile ?? '', 'utf8').trim();
    } catch (err) {
      if (!token)
        throw new CredentialsError(`cannot read the token file of user "${u.name}": ${openError(u.tokenFile ?? '', err)}`, u.name);
    }
    opts.headers ??= {};
    if (token) opts.headers.Authorization = `Bearer ${token}`;
  }
}

/** The user as client-node gets it: the exec plugin and the token file left to fleetdeck's own authenticators. */
function forFleetdeck(user: KubeUser): KubeUser {
  let u: KubeUser = user;
  if (u.exec) u = { ...u, exec: undefined, execPlugin: u.exec as ExecConfig };
  if (u.tokenFile) u = { ...u, token: undefined, staticToken: u.token };
  return u;
}

export class ContextKubeConfig extends KubeConfig {
  constructor() {
    super();
    this.addAuthenticator(new TokenFileAuth());
    this.addAuthenticator(new ExecPluginAuth(() => this.getCurrentCluster()));
  }

  override loadFromOptions(options: Parameters<KubeConfig['loadFromOptions']>[0]): void {
    super.loadFromOptions({ ...options, users: (options.users ?? []).map((u: User) => forFleetdeck(u)) });
  }

  override async applySecurityAuthentication(context: Parameters<KubeConfig['applySecurityAuthentication']>[0]): Promise<void> {
    assertCredentials(this);
    try {
      await super.applySecurityAuthentication(context);
    } catch (err) {
      throw asCredentialsError(this, err);
    }
  }

  override async applyToHTTPSOptions(opts: Parameters<KubeConfig['applyToHTTPSOptions']>[0]): Promise<void> {
    assertCredentials(this);
    try {
      await super.applyToHTTPSOptions(opts);
    } catch (err) {
      throw asCredentialsError(this, err);
    }
  }
}
