import { describe, expect, it } from 'vitest';
import { decodeProcAddress, parseChronyTracking, parseOsRelease, parseProcNet, parseTimedatectl } from '../../src/preflight/parse.js';

describe('parsers', () => {
  it('os-release, proc addresses, proc/net lines', () => {
    expect(parseOsRelease('ID="rocky"\nVERSION_ID="9.4"\nPRETTY_NAME="Rocky Linux 9.4"\n')).toEqual({
      id: 'rocky',
      versionId: '9.4',
      prettyName: 'Rocky Linux 9.4',
    });
    expect(decodeProcAddress('3500007F')).toBe('127.0.0.53');
    expect(decodeProcAddress('00000000000000000000000000000000')).toBe('::');
    expect(decodeProcAddress('00000000000000000000000001000000')).toBe('::1');
    expect(decodeProcAddress('0000000000000000FFFF00000100007F')).toBe('::ffff:127.0.0.1');
    expect(decodeProcAddress('B80D0120000000000000000001000000')).toBe('2001:db8::1');
    const [s] = parseProcNet(
      '  sl header\n   0: 00000000:192B 00000000:0000 0A 00000000:00000000 00:00000000 00000000 0 0 4242 1\n',
      'tcp',
      false,
    );
    expect(s).toEqual({ proto: 'tcp', ipv6: false, address: '0.0.0.0', port: 6443, state: 'LISTEN', inode: 4242 });
  });
  it('timedatectl and chronyc', () => {
    expect(parseTimedatectl('NTP=yes\nNTPSynchronized=yes\n')).toBe(true);
    expect(parseTimedatectl('NTPSynchronized=no\n')).toBe(false);
    expect(parseTimedatectl('')).toBeUndefined();
    expect(parseChronyTracking('Leap status     : Normal\nSystem time     : 0.000012 seconds fast of NTP time\n')).toEqual({
      synchronized: true,
      detail: 'leap status Normal, 0.000012 seconds fast of NTP time',
    });
    expect(parseChronyTracking('Leap status     : Not synchronised\n')?.synchronized).toBe(false);
  });
});
