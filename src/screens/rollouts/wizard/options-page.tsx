/**
 * The options page: how each node is replaced (replacement mode, nodes at once, the drain's flags),
 * then the guard rails — windows, budget (its schedules, what it counts), alert gate (its filters,
 * pending alerts), blocking pods, recheck, soaks, deadlines, what a drain timeout does, the
 * PreferNoSchedule taint, labels, concurrency, the webhook and its format — each typed, chosen or
 * toggled in place; what is wrong with one is shown under it. The rows scroll with the focus.
 */
import { TextInput } from '@inkjs/ui';
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { padEnd, truncate, useTheme, type ColorRole } from '../../../components/theme/index.js';
import {
  FIRST_GUARD_ROW,
  type GuardChoiceField,
  type GuardField,
  type GuardForm,
  type GuardTextField,
  type GuardToggleField,
  type NewRolloutState,
  OPTION_ROWS,
  type OptionRow,
} from '../../../store/rollout-wizard.js';

const REPLACE_HELP: Record<string, string> = {
  wait: 'wait for a new Ready node to replace it',
  'delete-node': 'delete the Node object once drained',
  uncordon: 'uncordon it (in-place maintenance)',
};

/** Each guard rail's label, and what it takes or does (under the rows while it has the focus; at most 80 columns). */
const GUARD_TEXT: Record<GuardField, [label: string, help: string]> = {
  windows: ['Maintenance windows', 'DAYS HH:MM-HH:MM [ZONE], e.g. Sat,Sun 02:00-06:00 Europe/Berlin; several: a; b'],
  budget: ['Disruption budget', 'at most N nodes (or N%) of the cluster unavailable at once, e.g. 1 or 20%'],
  budgetSchedules: ['Budget schedules', 'SIZE at CRON for DURATION [in ZONE], e.g. 0 at 0 9 * * * for 8h; several: a; b'],
  budgetOf: ['Budget counts', 'which nodes the budget counts'],
  alertsApi: ['Alerts from', 'the API the alerts URL answers'],
  alertsUrl: ['Alerts URL', 'hold while alerts fire there, e.g. http://prometheus.monitoring:9090'],
  alertIgnore: ['Alert ignore regexp', 'alerts whose name matches never hold, e.g. ^(Watchdog|InfoInhibitor)$'],
  alertMatch: ['Alert match regexp', 'only alerts whose name matches hold, e.g. ^Node'],
  alertPending: ['Pending alerts hold too', 'pending (Prometheus) or silenced (Alertmanager) alerts hold too'],
  blockingPods: ['Blocking pods', 'hold while pods matching this selector exist, e.g. app=backup; several: a; b'],
  recheck: ['Recheck interval', 'how often a hold is checked again (default 1m, at least 1s), e.g. 30s'],
  soak: ['Soak', 'wait this long after each batch passes its health gate, e.g. 10m'],
  prioritySoak: ['Priority soak', 'wait this long before moving to a lower priority, e.g. 30m'],
  nodeDeadline: ['Node deadline', 'pause when a node is not done this long after its cordon, e.g. 1h'],
  rolloutDeadline: ['Rollout deadline', 'pause when the rollout is not done this long after its start, e.g. 8h'],
  onDrainTimeout: ['On drain timeout', 'what a drain that times out does'],
  taint: ['PreferNoSchedule taint', 'on the nodes about to go, so evicted pods avoid them'],
  labelsBefore: ['Labels before', 'KEY=VALUE on a node while the rollout works on it; several: a=1,b=2'],
  labelsAfter: ['Labels after', 'KEY=VALUE on a node (or its replacement) once it is done; several: a=1,b=2'],
  concurrent: ['Concurrent', 'run even while another rollout runs in the cluster (else wait for it)'],
  webhook: ['Webhook URL', 'POST a message on start, drained, replaced, blocked, paused, failed, completed'],
  notifyFormat: ['Notification format', "the webhook's body"],
};

/** Each choice's values as shown, and what each does. */
const CHOICE_TEXT: { [K in GuardChoiceField]: Record<GuardForm[K], [shown: string, help: string]> } = {
  budgetOf: { cluster: ['cluster', 'every node of the cluster'], selected: ['selected', "only the rollout's nodes"] },
  alertsApi: { prometheus: ['Prometheus', GUARD_TEXT.alertsApi[1]], alertmanager: ['Alertmanager', GUARD_TEXT.alertsApi[1]] },
  onDrainTimeout: {
    pause: ['pause', 'pause the rollout'],
    skip: ['skip', 'skip the node (uncordoned, left as it was)'],
    force: ['force', 'delete its pods without eviction: PodDisruptionBudgets bypassed'],
  },
  notifyFormat: { slack: ['slack', 'Slack-compatible {"text": …}'], json: ['json', 'the event as a JSON object, with its text'] },
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
  }
  const [label, help] = GUARD_TEXT[row.id];
  if (row.kind === 'toggle') return [label, box(g[row.id as GuardToggleField]), help];
  if (row.kind === 'choice') {
    const id = row.id as GuardChoiceField;
    const [shown, what] = (CHOICE_TEXT[id] as Record<string, [string, string]>)[g[id]] ?? [g[id], help];
    return [label, `‹ ${shown} ›`, what, id === 'onDrainTimeout' && g[id] === 'force' ? 'fail' : undefined];
  }
  const text = g[row.id as GuardTextField];
  return [label, text.trim() ? text : '-', ''];
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
