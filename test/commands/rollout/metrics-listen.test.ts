import { describe, expect, it } from 'vitest';
import { parseListen } from '../../../src/commands/rollout/metrics-listen.js';
import { UserError } from '../../../src/errors.js';

/** The error parseListen throws for `text`. */
function refused(text: string): UserError {
  try {
    parseListen(text);
  } catch (err) {
    return err as UserError;
  }
  throw new Error(`parseListen accepted "${text}"`);
}

describe('--metrics-listen HOST:PORT', () => {
  it('reads a host and a port', () => {
    expect(parseListen('0.0.0.0:9464')).toEqual({ host: '0.0.0.0', port: 9464 });
    expect(parseListen('127.0.0.1:0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseListen('localhost:65535')).toEqual({ host: 'localhost', port: 65_535 });
  });

  it('no host: every address (0.0.0.0)', () => {
    expect(parseListen(':9464')).toEqual({ host: '0.0.0.0', port: 9464 });
  });

  it('an IPv6 host in brackets, without them', () => {
    expect(parseListen('[::]:9464')).toEqual({ host: '::', port: 9464 });
    expect(parseListen('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
  });

  it('anything else: a UserError with exit code 2 saying the form', () => {
    const err = refused('9464');
    expect(err).toBeInstanceOf(UserError);
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe('--metrics-listen "9464": give HOST:PORT, e.g. 0.0.0.0:9464 or :9464');
    expect(
      ['host:', 'host:http', '0.0.0.0:65536', '0.0.0.0:123456', '::9464', '[::]9464', 'a:b:9464'].map((t) => refused(t).message),
    ).toEqual([
      '--metrics-listen "host:": give HOST:PORT, e.g. 0.0.0.0:9464 or :9464',
      '--metrics-listen "host:http": give HOST:PORT, e.g. 0.0.0.0:9464 or :9464',
      '--metrics-listen "0.0.0.0:65536": give HOST:PORT, e.g. 0.0.0.0:9464 or :9464',
      '--metrics-listen "0.0.0.0:123456": give HOST:PORT, e.g. 0.0.0.0:9464 or :9464',
      '--metrics-listen "::9464": give HOST:PORT, e.g. 0.0.0.0:9464 or :9464',
      '--metrics-listen "[::]9464": give HOST:PORT, e.g. 0.0.0.0:9464 or :9464',
      '--metrics-listen "a:b:9464": give HOST:PORT, e.g. 0.0.0.0:9464 or :9464',
    ]);
  });
});
