/** The wizard's pages, one component each (the context page is a Select in the wizard itself). */
import { MultiSelect, TextInput } from '@inkjs/ui';
import { Box, Text } from 'ink';
import { ChecklistRow } from '../../../components/checklist/index.js';
import { padEnd, truncate, useTheme, type ColorRole } from '../../../components/theme/index.js';
import type { checklistLines } from '../../../checklist/checklist.js';
import { useGate } from '../../../components/key-actions/index.js';
import type { NewRolloutState, PlanVerdict } from '../../../store/rollout-wizard.js';
import type { ShownLine } from '../guard-rails.js';

/** What the selector being typed (`state.draft`) matches, live. */
export function MatchLine({ state, width }: { state: NewRolloutState; width: number }) {
  const theme = useTheme();
  let text: string;
  let tone: ColorRole | undefined;
  if (state.nodesError) {
    text = `cannot list the nodes: ${state.nodesError}`;
    tone = 'fail';
  } else if (!state.nodes) {
    text = 'listing the nodes…';
    tone = 'muted';
  } else if (state.draft.trim() === '' || !state.draftMatch) {
    text = `${state.nodes.length} node${state.nodes.length === 1 ? '' : 's'} in the cluster`;
    tone = 'muted';
  } else {
    const m = state.draftMatch;
    if ('error' in m) {
      text = m.error;
      tone = 'warn';
    } else {
      const few = m.names.slice(0, 6).join(', ') + (m.names.length > 6 ? ', …' : '');
      text = `matches ${m.names.length} of ${state.nodes.length} node${state.nodes.length === 1 ? '' : 's'}${m.names.length ? `: ${few}` : ''}`;
      tone = m.names.length ? 'ok' : 'warn';
    }
  }
  return (
    <Text color={tone ? theme.color(tone) : undefined} dimColor={tone === 'muted'} wrap="truncate-end">
      {truncate(theme.text(text), width, theme.ellipsis)}
    </Text>
  );
}

export function SelectorsPage({
  state,
  width,
  rows,
  onDraft,
  onSubmit,
}: {
  state: NewRolloutState;
  width: number;
  rows: number;
  onDraft: (t: string) => void;
  onSubmit: (t: string) => void;
}) {
  const theme = useTheme();
  const shown = state.selectors.slice(-Math.max(1, rows - 4));
  return (
    <Box flexDirection="column">
      {state.selectors.length ? (
        <>
          <Text dimColor>{theme.text(`Selectors so far (${state.selectors.length}):`)}</Text>
          {shown.map((s) => (
            <Text key={s.selector} wrap="truncate-end">
              {truncate(theme.text(`  ${s.selector}  priority ${s.priority}`), width, theme.ellipsis)}
            </Text>
          ))}
        </>
      ) : (
        <Text dimColor wrap="truncate-end">
          {truncate(
            theme.text('kubectl syntax, e.g. kubernetes.io/role=worker or topology.kubernetes.io/zone in (zone-a,zone-b)'),
            width,
            theme.ellipsis,
          )}
        </Text>
      )}
      <Box>
        <Text>Selector: </Text>
        <TextInput
          key={`selector:${state.selectors.length}:${state.selectors.map((s) => s.priority).join(',')}`}
          defaultValue={state.draft}
          onChange={onDraft}
          onSubmit={onSubmit}
        />
      </Box>
      <MatchLine state={state} width={width} />
    </Box>
  );
}

export function NodesPage({
  state,
  height,
  width,
  onSubmit,
}: {
  state: NewRolloutState;
  height: number;
  width: number;
  onSubmit: (names: string[]) => void;
}) {
  const theme = useTheme();
  if (state.nodesError) return <Text color={theme.color('fail')}>{theme.text(`cannot list the nodes: ${state.nodesError}`)}</Text>;
  if (!state.nodes) return <Text dimColor>listing the nodes…</Text>;
  const nameWidth = Math.min(40, Math.max(...state.nodes.map((n) => n.name.length), 4));
  const options = state.nodes.map((n) => {
    const fromSelector = state.fromSelectors[n.name];
    const notes = [
      n.labels['topology.kubernetes.io/zone'] ?? '',
      n.ready ? '' : 'NotReady',
      n.unschedulable ? 'cordoned' : '',
      fromSelector !== undefined ? `selected by a selector, priority ${fromSelector}` : '',
    ].filter(Boolean);
    return {
      label: truncate(theme.text(`${padEnd(n.name, nameWidth)}  ${notes.join(' · ')}`), Math.max(10, width - 6), theme.ellipsis),
      value: n.name,
    };
  });
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate-end">
        {truncate(
          theme.text(
            state.selectors.length ? "Also by name (optional: a name's priority overrides its selector's):" : 'Pick the nodes to replace:',
          ),
          width,
          theme.ellipsis,
        )}
      </Text>
      <MultiSelect
        options={options}
        defaultValue={state.names.map((n) => n.name)}
        visibleOptionCount={Math.max(3, Math.min(12, height - 8))}
        onSubmit={onSubmit}
      />
    </Box>
  );
}

export function PrioritiesPage({ state, height, width }: { state: NewRolloutState; height: number; width: number }) {
  const theme = useTheme();
  const budget = Math.max(3, height - 8);
  const start = Math.max(0, Math.min(state.focus - Math.floor(budget / 2), state.names.length - budget));
  const nameWidth = Math.min(40, Math.max(...state.names.map((n) => n.name.length), 4));
  return (
    <Box flexDirection="column">
      {state.names.slice(start, start + budget).map((n, i) => {
        const focused = start + i === state.focus;
        return (
          <Text key={n.name} inverse={focused} wrap="truncate-end">
            {truncate(
              theme.text(`${focused ? theme.pointer : ' '} ${padEnd(n.name, nameWidth)}  priority ${n.priority}`),
              width,
              theme.ellipsis,
            )}
          </Text>
        );
      })}
      <Text dimColor wrap="truncate-end">
        {truncate(
          theme.text(
            `${state.names.length} node${state.names.length === 1 ? '' : 's'} · higher priorities first; a name's priority overrides a selector's`,
          ),
          width,
          theme.ellipsis,
        )}
      </Text>
    </Box>
  );
}

/** The plan page's last line: why nothing starts yet, or what Enter starts. */
function planFooter(state: NewRolloutState, verdict: PlanVerdict, readOnly: boolean, count: number): [string, ColorRole] {
  const nodes = `${count} node${count === 1 ? '' : 's'}`;
  if (readOnly) return ['Read-only mode: nothing is started (run fleetdeck without --read-only).', 'warn'];
  if (state.starting) return [state.navarchos ? 'creating the NodeRollout…' : 'starting the rollout…', 'running'];
  if (!verdict.ready) return ['dry run: classifying the pods of every node…', 'muted'];
  if (verdict.refused.length)
    return [
      `Refused: pods on ${verdict.refused.join(', ')} need a flag — go back (esc) to the options and turn it on, or leave those nodes out.`,
      'fail',
    ];
  if (state.navarchos) return ['Press enter to create the NodeRollout: the Navarchos controller does the work.', 'ok'];
  return state.inCluster
    ? [`Press enter to start a Job that cordons and drains ${nodes}, highest priority first.`, 'ok']
    : [`Press enter to start: it cordons and drains ${nodes}, highest priority first.`, 'ok'];
}

export function PlanPage({
  state,
  lines,
  budget,
  guards,
  width,
}: {
  state: NewRolloutState;
  lines: ReturnType<typeof checklistLines>;
  budget: number;
  /** The guard rails of the spec, as they fit (guardRailLines). */
  guards: readonly ShownLine[];
  width: number;
}) {
  const theme = useTheme();
  const { readOnly } = useGate();
  const { name, verdict } = state;
  const text = (s: string, tone?: ColorRole) => (
    <Text color={tone ? theme.color(tone) : undefined} dimColor={tone === 'muted'} wrap="truncate-end">
      {truncate(theme.text(s), width, theme.ellipsis)}
    </Text>
  );
  if (state.planError) {
    return (
      <Box flexDirection="column">
        {text(state.planError, 'fail')}
        {text('Go back (esc) and change the selection.', 'muted')}
      </Box>
    );
  }
  if (!state.plan || !verdict) return text('resolving…', 'muted');
  const count = state.plan.nodes.length;
  const flags =
    [state.force ? '--force' : '', state.deleteEmptyDirData ? '--delete-emptydir-data' : ''].filter(Boolean).join(' ') ||
    'no --force, no --delete-emptydir-data';
  const head = state.navarchos
    ? [
        `NodeRollout rollout-… (named by the server) · ${count} node${count === 1 ? '' : 's'} in this order`,
        'the Navarchos controller replaces them one at a time, with its own drain settings',
      ]
    : [
        `${name} · ${count} node${count === 1 ? '' : 's'} in this order`,
        `replace: ${state.replace} · ${state.maxUnavailable} at a time · ${flags}`,
        state.inCluster
          ? 'runs in the cluster, as a Job: fleetdeck may quit (i: run it here)'
          : 'runs here: quitting fleetdeck pauses it (i: run it in the cluster)',
      ];
  const start = Math.min(state.scroll, Math.max(0, lines.length - budget));
  const shown = lines.slice(start, start + budget);
  const below = lines.length - start - shown.length;
  const footer = planFooter(state, verdict, readOnly, count);
  return (
    <Box flexDirection="column">
      {text(head[0]!)}
      {text(head[1]!, 'muted')}
      {head[2] ? text(head[2], state.inCluster ? 'running' : 'muted') : null}
      {state.navarchos ? null : guards.map((g, i) => <Box key={`g${i}`}>{text(g.text, g.tone)}</Box>)}
      {start > 0 ? text(`↑ ${start} more line${start === 1 ? '' : 's'}`, 'muted') : null}
      {shown.map((l) => (
        <ChecklistRow key={`${l.item.id}:${l.kind}:${l.depth}`} line={l} width={width} />
      ))}
      {below > 0 ? text(`↓ ${below} more line${below === 1 ? '' : 's'} (j/k scroll)`, 'muted') : null}
      {text(footer[0], footer[1])}
    </Box>
  );
}
