/**
 * The options page: how each node is replaced (replacement mode, nodes at once, the drain's flags),
 * then the guard rails — windows, budget, alert gate, blocking pods, soak, deadlines, what a drain
 * timeout does, the PreferNoSchedule taint, the webhook — each typed, chosen or toggled in place;
 * what is wrong with one is shown under it. The rows scroll with the focus.
 */
import { TextInput } from '@inkjs/ui';
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { padEnd, truncate, useTheme, type ColorRole } from '../../../components/theme/index.js';
import {
  FIRST_GUARD_ROW,
  type GuardField,
  type GuardTextField,
  type NewRolloutState,
  OPTION_ROWS,
  type OptionRow,
} from '../../../store/rollout-wizard.js';

const REPLACE_HELP: Record<string, string> = {
  wait: 'wait for a new Ready node to replace it',
  'delete-node': 'delete the Node object once drained',
  uncordon: 'uncordon it (in-place maintenance)',
};

const DRAIN_TIMEOUT_HELP: Record<string, string> = {
  pause: 'pause the rollout',
  skip: 'skip the node (uncordoned, left as it was)',
  force: 'delete its pods without eviction: PodDisruptionBudgets bypassed',
};

/** Each guard rail's label, and what it takes (shown under the rows while it has the focus). */
const GUARD_TEXT: Record<GuardField, [label: string, help: string]> = {
  windows: ['Maintenance windows', 'DAYS HH:MM-HH:MM [ZONE], e.g. Sat,Sun 02:00-06:00 Europe/Berlin; several: a; b'],
  budget: ['Disruption budget', 'at most N nodes (or N%) of the cluster unavailable at once, e.g. 1 or 20%'],
  alertsApi: ['Alerts from', 'the API the alerts URL answers'],
  alertsUrl: ['Alerts URL', 'hold while alerts fire there, e.g. http://prometheus.monitoring:9090'],
  blockingPods: ['Blocking pods', 'hold while pods matching this selector exist, e.g. app=backup; several: a; b'],
  soak: ['Soak', 'wait this long after each batch passes its health gate, e.g. 10m'],
  nodeDeadline: ['Node deadline', 'pause when a node is not done this long after its cordon, e.g. 1h'],
  rolloutDeadline: ['Rollout deadline', 'pause when the rollout is not done this long after its start, e.g. 8h'],
  onDrainTimeout: ['On drain timeout', 'what a drain that times out does'],
  taint: ['PreferNoSchedule taint', 'on the nodes about to go, so evicted pods avoid them'],
  webhook: ['Webhook URL', 'POST a Slack-compatible message on start, drained, blocked, paused, failed, done'],
};

const FOOTER = 'Drain timeout 15 min a node; health gate: all nodes Ready, no Pending pod, 3×5 s.';

export interface OptionsPageProps {
  state: NewRolloutState;
  width: number;
  height: number;
  /** A guard rail's text as typed, and Enter in it (continue). */
  onText: (field: GuardTextField, text: string) => void;
  onSubmit: (field: GuardTextField, text: string) => void;
}

interface PageLine {
  key: string;
  /** The row it draws (undefined: the heading, an error). */
  row?: number;
  text: string;
  tone?: ColorRole | undefined;
}

/** A row's label, value and help: `[label, value, help, tone]`. */
function rowText(state: NewRolloutState, row: OptionRow, box: (on: boolean) => string): [string, string, string, ColorRole?] {
  const g = state.guardForm;
  switch (row.id) {
    case 'replace':
      return ['Replacement', `‹ ${state.replace} ›`, REPLACE_HELP[state.replace] ?? ''];
    case 'maxUnavailable':
      return ['Max unavailable', `‹ ${state.maxUnavailable} ›`, 'nodes at once, within a priority'];
    case 'force':
      return ['--force', box(state.force), 'evict pods no controller recreates'];
    case 'deleteEmptyDirData':
      return ['--delete-emptydir-data', box(state.deleteEmptyDirData), 'evict pods with emptyDir (data lost)'];
    case 'alertsApi':
      return [GUARD_TEXT.alertsApi[0], `‹ ${g.alertsApi === 'prometheus' ? 'Prometheus' : 'Alertmanager'} ›`, GUARD_TEXT.alertsApi[1]];
    case 'onDrainTimeout':
      return [
        GUARD_TEXT.onDrainTimeout[0],
        `‹ ${g.onDrainTimeout} ›`,
        DRAIN_TIMEOUT_HELP[g.onDrainTimeout] ?? '',
        g.onDrainTimeout === 'force' ? 'fail' : undefined,
      ];
    case 'taint':
      return [GUARD_TEXT.taint[0], box(g.taint), GUARD_TEXT.taint[1]];
    default: {
      const text = g[row.id as GuardTextField];
      return [GUARD_TEXT[row.id][0], text.trim() ? text : '-', ''];
    }
  }
}

/** The page's lines: the rows, the guard rails' heading before theirs, an error under its row. */
function pageLines(state: NewRolloutState, pointer: string, box: (on: boolean) => string): PageLine[] {
  const lines: PageLine[] = [];
  OPTION_ROWS.forEach((row, i) => {
    if (i === FIRST_GUARD_ROW) lines.push({ key: 'heading', text: 'Guard rails (optional; ↑/↓ to reach them)', tone: 'muted' });
    const [label, value, help, tone] = rowText(state, row, box);
    const mark = i === state.focus ? pointer : ' ';
    const text =
      row.kind === 'text' ? `${mark} ${padEnd(label, 23)} ${value}` : `${mark} ${padEnd(label, 23)} ${padEnd(value, 16)} ${help}`;
    lines.push({ key: row.id, row: i, text, tone });
    const error = state.guardErrors[row.id as GuardField];
    if (error) lines.push({ key: `${row.id}:error`, text: `    ${error}`, tone: 'fail' });
  });
  return lines;
}

export function OptionsPage({ state, width, height, onText, onSubmit }: OptionsPageProps) {
  const theme = useTheme();
  const box = (on: boolean) => (theme.ascii ? (on ? '[x]' : '[ ]') : on ? '◉' : '◯');
  const lines = pageLines(state, theme.pointer, box);
  const budget = Math.max(3, height - 5);
  const at = lines.findIndex((l) => l.row === state.focus);
  const start = Math.max(0, Math.min(at - Math.floor(budget / 2), lines.length - budget));
  const focused = OPTION_ROWS[state.focus];
  const typing = focused?.kind === 'text' ? (focused.id as GuardTextField) : undefined;
  // Under the rows: what the focused guard rail takes, or does (its whole words), else the drain's defaults.
  const [, , help, tone] = focused ? rowText(state, focused, box) : [];
  const footer: PageLine =
    focused && state.focus >= FIRST_GUARD_ROW
      ? { key: 'footer', text: (typing ? GUARD_TEXT[typing][1] : help) ?? '', tone: tone ?? 'muted' }
      : { key: 'footer', text: FOOTER, tone: 'muted' };
  const text = (l: PageLine, inverse = false) => (
    <Text key={l.key} inverse={inverse} color={l.tone ? theme.color(l.tone) : undefined} dimColor={l.tone === 'muted'} wrap="truncate-end">
      {truncate(theme.text(l.text), width, theme.ellipsis)}
    </Text>
  );
  return (
    <Box flexDirection="column">
      {lines.slice(start, start + budget).map((l) => {
        if (l.row !== state.focus) return text(l);
        if (!typing) return text(l, true);
        const head = `${theme.pointer} ${padEnd(GUARD_TEXT[typing][0], 23)} `;
        return (
          <Box key={l.key} height={1} overflow="hidden">
            <Text inverse>{theme.text(head)}</Text>
            <Box width={Math.max(1, width - head.length)} height={1} overflow="hidden">
              <GuardInput key={`guard:${typing}`} field={typing} value={state.guardForm[typing]} onText={onText} onSubmit={onSubmit} />
            </Box>
          </Box>
        );
      })}
      {text(footer)}
    </Box>
  );
}

/** A guard rail's text field; its handlers stay the same while it is shown (the field calls onChange from an effect). */
function GuardInput({
  field,
  value,
  onText,
  onSubmit,
}: { field: GuardTextField; value: string } & Pick<OptionsPageProps, 'onText' | 'onSubmit'>) {
  const on = useMemo(
    () => ({ change: (t: string) => onText(field, t), submit: (t: string) => onSubmit(field, t) }),
    [field, onText, onSubmit],
  );
  return <TextInput defaultValue={value} onChange={on.change} onSubmit={on.submit} />;
}
