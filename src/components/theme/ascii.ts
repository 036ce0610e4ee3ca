import { toAscii } from '../../checklist/checklist.js';

/** `toAscii(text)` when `ascii` is on, else the text unchanged. */
export function toAsciiIf(ascii: boolean, text: string): string {
  return ascii ? toAscii(text) : text;
}
