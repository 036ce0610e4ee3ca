import { Text } from 'ink';
import { useTheme, width as textWidth } from '../theme/index.js';

export interface KeyHint {
  key: string;
  label: string;
}

export interface KeyHintsProps {
  hints: readonly KeyHint[];
  /** Columns available: hints that do not fit are left off, from the end. */
  width: number;
}

/** The bottom line, like k9s: "? help · q quit · tab screens". */
export function KeyHints({ hints, width }: KeyHintsProps) {
  const theme = useTheme();
  const sep = ` ${theme.separator} `;
  const shown: KeyHint[] = [];
  let used = 0;
  for (const h of hints) {
    const w = textWidth(theme.text(`${h.key} ${h.label}`)) + (shown.length ? sep.length : 0);
    if (used + w > width) break;
    shown.push(h);
    used += w;
  }
  return (
    <Text>
      {shown.map((h, i) => (
        <Text key={`${i}:${h.key}`}>
          {i > 0 ? <Text dimColor>{sep}</Text> : null}
          <Text bold color={theme.color('key')}>
            {theme.text(h.key)}
          </Text>
          <Text dimColor> {theme.text(h.label)}</Text>
        </Text>
      ))}
    </Text>
  );
}
