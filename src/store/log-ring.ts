/**
 * A ring buffer of the last `capacity` items: pushing the item after the last drops the oldest,
 * so whatever the rate of a log, what it holds stays bounded. Mutated in place by its one
 * writer (the logs feed, at a flush); readers see it through the slice's `revision`.
 */
export class Ring<T> {
  private items: (T | undefined)[];
  private start = 0;
  private count = 0;
  /** How many items were dropped to make room, since the last clear. */
  dropped = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`ring capacity must be a whole number ≥ 1, not ${capacity}`);
    this.items = [];
  }

  get length(): number {
    return this.count;
  }

  push(item: T): void {
    if (this.count < this.capacity) {
      this.items[(this.start + this.count) % this.capacity] = item;
      this.count++;
      return;
    }
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.capacity;
    this.dropped++;
  }

  /** The i-th oldest item held (0: the oldest). */
  at(i: number): T | undefined {
    if (i < 0 || i >= this.count) return undefined;
    return this.items[(this.start + i) % this.capacity];
  }

  /** Oldest first. */
  toArray(): T[] {
    const out: T[] = new Array(this.count);
    for (let i = 0; i < this.count; i++) out[i] = this.items[(this.start + i) % this.capacity] as T;
    return out;
  }

  clear(): void {
    this.items = [];
    this.start = 0;
    this.count = 0;
    this.dropped = 0;
  }
}
