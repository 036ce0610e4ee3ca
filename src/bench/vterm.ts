/**
 * A fake terminal for the in-process dashboard: Ink writes to it as to a TTY (incremental
 * rendering, cursor movement, line erases) and it keeps the screen those writes produce, so a
 * benchmark can tell when a frame on screen shows something, the moment it is written.
 */
import { EventEmitter } from 'node:events';

export class VirtualTerminal extends EventEmitter {
  readonly isTTY = true;
  /** Bytes (characters) written so far. */
  written = 0;
  writes = 0;
  private grid: string[][];
  private x = 0;
  private y = 0;
  private pending = '';
  private readonly watchers = new Set<() => void>();

  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    super();
    this.grid = Array.from({ length: rows }, () => []);
  }

  /** Ink calls this (and nothing else) to draw. */
  write(chunk: string | Uint8Array, encoding?: unknown, cb?: unknown): boolean {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    this.written += text.length;
    this.writes++;
    this.feed(text);
    for (const w of [...this.watchers]) w();
    const done = typeof encoding === 'function' ? encoding : cb;
    if (typeof done === 'function') (done as () => void)();
    return true;
  }

  // Stream surface Ink may touch.
  cork(): void {}
  uncork(): void {}
  end(): void {}
  getColorDepth(): number {
    return 8;
  }
  hasColors(): boolean {
    return true;
  }
  getWindowSize(): [number, number] {
    return [this.columns, this.rows];
  }

  /** The screen, one string per row, trailing blanks trimmed. */
  screen(): string[] {
    return this.grid.map((row) =>
      Array.from(row, (c) => c || ' ')
        .join('')
        .trimEnd(),
    );
  }

  /** Resolves with the time of the first write after which `test(screen)` holds (checked now, too). */
  waitForScreen(test: (screen: string[]) => boolean, timeoutMs: number): Promise<number | undefined> {
    if (test(this.screen())) return Promise.resolve(performance.now());
    return new Promise((resolve) => {
      const check = () => {
        if (!test(this.screen())) return;
        const at = performance.now();
        finish(at);
      };
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      const finish = (at: number | undefined) => {
        clearTimeout(timer);
        this.watchers.delete(check);
        resolve(at);
      };
      this.watchers.add(check);
    });
  }

  /** Calls `fn` after every write until the returned function is called. */
  onWrite(fn: () => void): () => void {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  }

  // --- a small VT100 subset: what Ink's log-update writes ---

  private feed(text: string): void {
    const s = this.pending + text;
    this.pending = '';
    let i = 0;
    while (i < s.length) {
      const ch = s[i]!;
      if (ch === '\u001b') {
        const next = s[i + 1];
        if (next === undefined) {
          this.pending = s.slice(i);
          return;
        }
        if (next === '[') {
          let j = i + 2;
          while (j < s.length && !/[\u0040-\u007e]/.test(s[j]!)) j++;
          if (j >= s.length) {
            this.pending = s.slice(i);
            return;
          }
          this.csi(s.slice(i + 2, j), s[j]!);
          i = j + 1;
          continue;
        }
        if (next === ']') {
          // OSC (hyperlinks, titles): up to BEL or ESC \.
          let j = i + 2;
          while (j < s.length && s[j] !== '\u0007' && !(s[j] === '\u001b' && s[j + 1] === '\\')) j++;
          if (j >= s.length) {
            this.pending = s.slice(i);
            return;
          }
          i = s[j] === '\u0007' ? j + 1 : j + 2;
          continue;
        }
        i += 2; // ESC 7, ESC 8 and other two-byte sequences: no effect on the text.
        continue;
      }
      if (ch === '\n') {
        this.lineFeed();
        this.x = 0; // a TTY's output processing turns LF into CR LF
      } else if (ch === '\r') {
        this.x = 0;
      } else if (ch === '\b') {
        this.x = Math.max(0, this.x - 1);
      } else if (ch === '\t') {
        this.x = Math.min(this.columns - 1, (Math.floor(this.x / 8) + 1) * 8);
      } else if (ch >= ' ') {
        const cp = s.codePointAt(i)!;
        const glyph = String.fromCodePoint(cp);
        if (this.x >= this.columns) {
          this.lineFeed();
          this.x = 0;
        }
        const row = this.grid[this.y]!;
        while (row.length < this.x) row.push(' ');
        row[this.x] = glyph;
        this.x++;
        i += glyph.length;
        continue;
      }
      i++;
    }
  }

  private lineFeed(): void {
    if (this.y < this.rows - 1) {
      this.y++;
      return;
    }
    this.grid.shift();
    this.grid.push([]);
  }

  private csi(params: string, final: string): void {
    if (params.startsWith('?') || params.startsWith('>') || params.startsWith('=')) return; // modes
    const nums = params.split(';').map((p) => (p === '' ? undefined : Number(p)));
    const n = nums[0] ?? 1;
    const clampY = (v: number) => Math.max(0, Math.min(this.rows - 1, v));
    const clampX = (v: number) => Math.max(0, Math.min(this.columns - 1, v));
    switch (final) {
      case 'A':
        this.y = clampY(this.y - n);
        break;
      case 'B':
        this.y = clampY(this.y + n);
        break;
      case 'C':
        this.x = clampX(this.x + n);
        break;
      case 'D':
        this.x = clampX(this.x - n);
        break;
      case 'E':
        this.y = clampY(this.y + n);
        this.x = 0;
        break;
      case 'F':
        this.y = clampY(this.y - n);
        this.x = 0;
        break;
      case 'G':
        this.x = clampX(n - 1);
        break;
      case 'H':
      case 'f':
        this.y = clampY((nums[0] ?? 1) - 1);
        this.x = clampX((nums[1] ?? 1) - 1);
        break;
      case 'J': {
        const mode = nums[0] ?? 0;
        if (mode === 0) {
          this.grid[this.y] = this.grid[this.y]!.slice(0, this.x);
          for (let r = this.y + 1; r < this.rows; r++) this.grid[r] = [];
        } else if (mode === 1) {
          for (let r = 0; r < this.y; r++) this.grid[r] = [];
          this.blank(this.y, 0, this.x + 1);
        } else {
          this.grid = Array.from({ length: this.rows }, () => []);
        }
        break;
      }
      case 'K': {
        const mode = nums[0] ?? 0;
        if (mode === 0) this.grid[this.y] = this.grid[this.y]!.slice(0, this.x);
        else if (mode === 1) this.blank(this.y, 0, this.x + 1);
        else this.grid[this.y] = [];
        break;
      }
      default:
        break; // SGR (colours) and the rest do not move text
    }
  }

  private blank(y: number, from: number, to: number): void {
    const row = this.grid[y]!;
    for (let c = from; c < Math.min(to, row.length); c++) row[c] = ' ';
  }
}

/** A stdin Ink accepts as a TTY, from which nothing is ever read. */
export class IdleStdin extends EventEmitter {
  readonly isTTY = true;
  isRaw = false;
  setRawMode(mode: boolean): this {
    this.isRaw = mode;
    return this;
  }
  setEncoding(): this {
    return this;
  }
  read(): null {
    return null;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

/**
 * The cell of `column` (a header word such as "PODS") in the table row of `rowName`: the text
 * between that header's start and the next header's start, trimmed. Undefined when the screen
 * has no such header or row.
 */
export function tableCell(screen: readonly string[], column: string, rowName: string): string | undefined {
  const headerIndex = screen.findIndex((l) => new RegExp(`(^|\\s)${column}(\\s|$)`).test(l) && /(^|\s)NAME(\s|$)/.test(l));
  if (headerIndex < 0) return undefined;
  const header = screen[headerIndex]!;
  const words = [...header.matchAll(/\S+/g)].map((m) => ({ word: m[0], at: m.index }));
  const k = words.findIndex((w) => w.word === column);
  if (k < 0) return undefined;
  const start = words[k]!.at;
  const end = words[k + 1]?.at;
  // Rows start with a two-column pointer, then the name.
  const row = screen.slice(headerIndex + 1).find((l) => l.slice(2) === rowName || l.slice(2).startsWith(`${rowName} `));
  if (row === undefined) return undefined;
  return row.slice(start, end).trim();
}

/** A stdin that hands Ink the keys written to it. */
export class KeyStdin extends IdleStdin {
  private data: string | null = null;
  override read(): null {
    const d = this.data;
    this.data = null;
    return d as null;
  }
  press(key: string): void {
    this.data = key;
    this.emit('readable');
  }
}
