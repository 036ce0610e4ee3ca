/** Parsers of what a host reports (pure): os-release, /proc files, timedatectl and chronyc. */
import type { OsRelease, SocketEntry } from './facts.js';

export function parseOsRelease(text: string): OsRelease {
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) vars[m[1]!] = m[2]!.replace(/^(["'])(.*)\1$/, '$2');
  }
  return { id: (vars.ID ?? '').toLowerCase(), versionId: vars.VERSION_ID ?? '', prettyName: vars.PRETTY_NAME ?? '' };
}

const TCP_STATES: Record<string, string> = {
  '01': 'ESTABLISHED',
  '02': 'SYN_SENT',
  '03': 'SYN_RECV',
  '04': 'FIN_WAIT1',
  '05': 'FIN_WAIT2',
  '06': 'TIME_WAIT',
  '07': 'CLOSE',
  '08': 'CLOSE_WAIT',
  '09': 'LAST_ACK',
  '0A': 'LISTEN',
  '0B': 'CLOSING',
};

/** "0100007F" → 127.0.0.1; 32 hex digits → an IPv6 address (each 32-bit word in host order, little endian). */
export function decodeProcAddress(hex: string): string {
  const word = (h: string) => Buffer.from(h, 'hex').reverse();
  if (hex.length === 8) return [...word(hex)].join('.');
  const bytes = Buffer.concat([0, 8, 16, 24].map((i) => word(hex.slice(i, i + 8))));
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff') return `::ffff:${[...bytes.subarray(12)].join('.')}`;
  // Shorten the longest run of two or more zero groups to "::".
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

export function parseProcNet(text: string, proto: 'tcp' | 'udp', ipv6: boolean): SocketEntry[] {
  const out: SocketEntry[] = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10) continue;
    const [addr, port] = f[1]!.split(':');
    if (!addr || !port) continue;
    const st = f[3]!.toUpperCase();
    out.push({
      proto,
      ipv6,
      address: decodeProcAddress(addr),
      port: parseInt(port, 16),
      state: proto === 'tcp' ? (TCP_STATES[st] ?? st) : st,
      inode: Number(f[9]),
    });
  }
  return out;
}

export function parseSwaps(text: string): string[] {
  return text
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/)[0] ?? '')
    .filter(Boolean);
}

export function parseCpuCount(cpuinfo: string): number {
  return cpuinfo.split('\n').filter((l) => /^processor\s*:/.test(l)).length;
}

export function parseMemTotalBytes(meminfo: string): number | undefined {
  const m = /^MemTotal:\s+(\d+)\s*kB/m.exec(meminfo);
  return m ? Number(m[1]) * 1024 : undefined;
}

export function parseTimedatectl(text: string): boolean | undefined {
  const m = /^NTPSynchronized=(yes|no)$/m.exec(text);
  return m ? m[1] === 'yes' : undefined;
}

/** chronyc tracking: synchronised unless the leap status says not. */
export function parseChronyTracking(text: string): { synchronized: boolean; detail?: string } | undefined {
  const leap = /^Leap status\s*:\s*(.+)$/m.exec(text)?.[1]?.trim();
  if (!leap) return undefined;
  const offset = /^System time\s*:\s*(.+)$/m.exec(text)?.[1]?.trim();
  return { synchronized: leap !== 'Not synchronised', detail: [`leap status ${leap}`, offset].filter(Boolean).join(', ') };
}
