import { truncateMiddle, width as textWidth, wrap } from '../../components/theme/index.js';

/** Lines the panel gives its status (a refusal from the cluster is long: it is the point). */
export const STATUS_MAX_LINES = 3;

/**
 * The panel's status as at most `maxLines` lines of `width` columns: wrapped; when still too
 * long, shortened from the middle, so its start (which request, what failed) and its end (the
 * "(needs update on …)" a refusal ends with) both stay in sight.
 */
export function statusLines(text: string, width: number, maxLines = STATUS_MAX_LINES, ellipsis = '…'): string[] {
  const lines = wrap(text, width);
  if (lines.length <= maxLines) return lines;
  const at = text.lastIndexOf('(needs ');
  const tail = at >= 0 ? text.slice(at) : '';
  const head = at >= 0 ? text.slice(0, at).trimEnd() : text;
  for (let keep = Math.min(textWidth(head) - 1, maxLines * width - textWidth(tail)); keep > textWidth(ellipsis) + 1; keep--) {
    const shortened = wrap(`${truncateMiddle(head, keep, ellipsis)}${tail ? ` ${tail}` : ''}`, width);
    if (shortened.length <= maxLines) return shortened;
  }
  // Not even the end fits: its last lines.
  return wrap(tail || text, width).slice(-maxLines);
}
