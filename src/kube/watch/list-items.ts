/**
 * Reads a Kubernetes list (`{"kind":…,"metadata":{…},"items":[{…},{…}]}`) as it streams in,
 * handing each item to the caller as soon as its last byte arrived: every item is parsed alone
 * with JSON.parse and dropped once the caller has reduced it. A list of 50,000 pods (100 MB of
 * JSON) then never sits in memory as one string nor as 50,000 objects, whatever the page size.
 *
 * Only the structure is scanned here (strings, brackets, braces; a string's content is skipped
 * with indexOf): parsing stays V8's. Streaming JSON libraries tokenize every value in
 * JavaScript instead, several times slower than JSON.parse on the same bytes.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

export class ListItemReader {
  private depth = 0;
  private inString = false;
  /** The previous chunk ended inside a string on an unpaired backslash. */
  private escape = false;
  /** Inside the top-level `items` array. */
  private inItems = false;
  /** Pieces of the item being read (it started in an earlier chunk). */
  private item: string[] = [];
  private inItem = false;
  /** The list without its items (`"items":[]`): kind, apiVersion, metadata. */
  private envelope = '';
  private count = 0;

  constructor(private readonly onItem: (json: string) => void) {}

  /** How many items were handed over. */
  get items(): number {
    return this.count;
  }

  /** Feeds the next piece of the body (decoded text). */
  push(s: string): void {
    const n = s.length;
    let i = 0;
    let envStart = this.inItems ? -1 : 0;
    let itemStart = this.inItem ? 0 : -1;
    if (this.escape) {
      this.escape = false;
      i = 1;
    }
    while (i < n) {
      if (this.inString) {
        const q = s.indexOf('"', i);
        if (q < 0) {
          let b = 0;
          for (let j = n - 1; j >= i && s.charCodeAt(j) === BACKSLASH; j--) b++;
          this.escape = b % 2 === 1;
          i = n;
          break;
        }
        let b = 0;
        for (let j = q - 1; j >= i && s.charCodeAt(j) === BACKSLASH; j--) b++;
        i = q + 1;
        if (b % 2 === 0) this.inString = false;
        continue;
      }
      const c = s.charCodeAt(i);
      if (c === QUOTE) this.inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (this.inItems && this.depth === 2 && c === OPEN_BRACE) {
          this.inItem = true;
          itemStart = i;
        } else if (
          !this.inItems &&
          this.depth === 1 &&
          c === OPEN_BRACKET &&
          /"items"\s*:\s*$/.test(this.envelope + s.slice(envStart, i))
        ) {
          this.envelope += s.slice(envStart, i + 1);
          envStart = -1;
          this.inItems = true;
        }
        this.depth++;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        this.depth--;
        if (this.inItem && this.depth === 2) {
          this.item.push(s.slice(itemStart, i + 1));
          this.emit();
          itemStart = -1;
        } else if (this.inItems && this.depth === 1) {
          this.inItems = false;
          envStart = i;
        }
      }
      i++;
    }
    if (this.inItem && itemStart >= 0) this.item.push(s.slice(itemStart));
    if (!this.inItems && envStart >= 0) this.envelope += s.slice(envStart);
  }

  /** The list's own fields (metadata with `continue` and `resourceVersion`), once the body ended. */
  end<T>(): T {
    if (this.depth !== 0 || this.inString || this.inItem) throw new Error('the list ended early (incomplete JSON)');
    return JSON.parse(this.envelope) as T;
  }

  private emit(): void {
    const json = this.item.length === 1 ? this.item[0]! : this.item.join('');
    this.item = [];
    this.inItem = false;
    this.count++;
    this.onItem(json);
  }
}

/**
 * Below this many characters a list is parsed whole: V8's JSON.parse reads a few MB several
 * times faster than the scan above, and a page that small costs little memory as objects.
 */
const WHOLE_LIST_CHARS = 8 * 1024 * 1024;

/**
 * A list's body, read to its end: each item to `onItem`, the list's own fields returned (with
 * `items` empty). A small list is parsed whole; once the body passes `wholeLimit` characters it
 * is read item by item (the part already held first), so a large one never sits whole in memory.
 */
export async function readListBody<T, L>(
  body: AsyncIterable<string>,
  onItem: (item: T) => void,
  wholeLimit = WHOLE_LIST_CHARS,
): Promise<L> {
  const held: string[] = [];
  let size = 0;
  let reader: ListItemReader | undefined;
  for await (const chunk of body) {
    if (reader) {
      reader.push(chunk);
      continue;
    }
    held.push(chunk);
    size += chunk.length;
    if (size > wholeLimit) {
      reader = new ListItemReader((json) => onItem(JSON.parse(json) as T));
      for (const c of held) reader.push(c);
      held.length = 0;
    }
  }
  if (reader) return reader.end<L>();
  const list = JSON.parse(held.join('')) as L & { items?: T[] | null };
  const items = list.items ?? [];
  list.items = [];
  for (const item of items) onItem(item);
  return list;
}
