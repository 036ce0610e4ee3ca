import { TextInput } from '@inkjs/ui';
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { Checklist } from '../../components/checklist/index.js';
import { useGate, useKeyActions, useLiveReducer } from '../../components/key-actions/index.js';
import { truncate, useTheme, wrap } from '../../components/theme/index.js';
import type { Day2Actions } from '../../store/actions.js';
import type { Day2Slice } from '../../store/day2.js';
import type { FleetStore } from '../../store/fleet-store.js';
import { useAppCommands } from '../keys/app-commands.js';
import { factLines } from './day2-facts.js';
import { DAY2_KEYS, type Day2Editing, day2NavReducer } from './day2-keys.js';

export interface Day2PageProps {
  store: FleetStore;
  actions: Day2Actions;
  width: number;
  /** Rows the page may use. */
  height: number;
  /** Keys are the page's (not while the help or another tab is shown). */
  active: boolean;
  /** Esc on the menu: the page is gone. */
  onLeave: () => void;
  /** Now, for the facts' ages (tests). */
  now?: () => number;
}

function MenuBody({
  slice,
  cursor,
  editing,
  onSubmit,
}: {
  slice: Day2Slice;
  cursor: number;
  editing?: Day2Editing;
  onSubmit: (v: string) => void;
}) {
  const theme = useTheme();
  if (editing)
    return (
      <Box flexDirection="column">
        <Text>{editing.label}:</Text>
        <TextInput key={`${editing.id}/${editing.key}`} defaultValue={editing.value} onSubmit={onSubmit} />
      </Box>
    );
  if (slice.entries.length === 0) return <Text dimColor>loading…</Text>;
  return (
    <Box flexDirection="column">
      {slice.entries.map((e, i) => (
        <Text key={e.id} {...(e.unavailable ? { dimColor: true } : {})} {...(i === cursor ? { inverse: true } : {})}>
          {`${i === cursor ? theme.text('›') : ' '} ${e.label}${e.unavailable ? ` (${e.unavailable})` : ''}`}
        </Text>
      ))}
    </Box>
  );
}

/** The body under the facts: the menu, the plan, or the live rows with how the run ended. */
function StageBody({
  slice,
  width,
  rows,
  cursor,
  editing,
  onSubmit,
}: {
  slice: Day2Slice;
  width: number;
  rows: number;
  cursor: number;
  editing?: Day2Editing;
  onSubmit: (v: string) => void;
}) {
  const theme = useTheme();
  const { stage } = slice;
  const label = slice.entries.find((e) => 'id' in stage && e.id === stage.id)?.label ?? '';
  const lines = (text: string[]) => text.flatMap((l) => wrap(theme.text(l), width));
  switch (stage.stage) {
    case 'menu':
      return <MenuBody slice={slice} cursor={cursor} {...(editing ? { editing } : {})} onSubmit={onSubmit} />;
    case 'planning':
      return <Checklist items={[{ id: 'plan', label: `${label}: planning`, state: 'running' }]} width={width} />;
    case 'error':
      return (
        <Checklist
          items={[{ id: 'error', label: label || 'Day 2', state: 'fail', detail: stage.error, hint: 'esc: back to the menu' }]}
          width={width}
        />
      );
    case 'plan': {
      const tail = stage.refused ? [stage.refused] : stage.todo ? ['Press enter to run it.'] : [];
      const body = lines(stage.lines);
      const room = Math.max(1, rows - 1 - tail.length);
      const shown = body.length > room ? [...body.slice(0, room - 1), `↓ ${body.length - room + 1} more lines`] : body;
      return (
        <Box flexDirection="column">
          <Text bold>{truncate(theme.text(`${label}: the plan (nothing changed yet)`), width, theme.ellipsis)}</Text>
          <Text>{shown.join('\n')}</Text>
          {tail.length ? (
            <Text {...(stage.refused ? { color: theme.color('fail') } : { bold: true })}>{lines(tail).join('\n')}</Text>
          ) : null}
        </Box>
      );
    }
    default: {
      const done = stage.stage === 'done' ? stage : undefined;
      const end = done ? lines([done.summary, ...(done.hint ? [done.hint] : [])]) : [];
      const title = done ? label : `${label}: running…`;
      return (
        <Box flexDirection="column">
          <Text bold>{truncate(theme.text(title), width, theme.ellipsis)}</Text>
          <Checklist items={stage.items} width={width} height={Math.max(1, rows - 1 - end.length)} />
          {done ? <Text color={theme.color(done.ok ? 'ok' : 'fail')}>{end.join('\n')}</Text> : null}
        </Box>
      );
    }
  }
}

/**
 * The Install tab's Day 2 page: the control plane's day-2 facts, then the operations as a menu;
 * a chosen one shows its plan first (read-only), runs once confirmed, with its steps as live
 * checklist rows, and ends done or failed with what to do. Esc goes back. Its keys (day2-keys.ts)
 * are on the app's bottom line.
 */
export function Day2Page({ store, actions, width, height, active, onLeave, now = Date.now }: Day2PageProps) {
  const theme = useTheme();
  const { readOnly } = useGate();
  const app = useAppCommands();
  const slice = useStore(store, (s) => s.day2);
  const certs = useStore(store, (s) => s.certs);
  const [nav, live] = useLiveReducer(day2NavReducer, { cursor: 0 });
  useKeyActions(DAY2_KEYS, () => ({ app, nav: live, slice: store.getState().day2, actions, leave: onLeave }), { active });
  const submit = (value: string) => {
    const editing = live.get().editing;
    if (!editing) return;
    live.dispatch({ type: 'typed' });
    actions.plan(editing.id, { [editing.key]: value.trim() });
  };
  const cursor = Math.min(nav.cursor, Math.max(0, slice.entries.length - 1));
  const facts = factLines(slice.facts, certs, now()).map((l) => truncate(theme.text(l), width, theme.ellipsis));
  const shortScreen = height < 11;
  const shownFacts = shortScreen ? [] : facts;
  const rows = Math.max(2, height - 1 - shownFacts.length - (shortScreen ? 0 : 1) - (readOnly ? 1 : 0));
  return (
    <Box flexDirection="column" width={width}>
      <Text bold color={theme.color('accent')}>
        Day 2
      </Text>
      {shownFacts.length ? <Text dimColor>{shownFacts.join('\n')}</Text> : null}
      {readOnly ? (
        <Text dimColor>{truncate(theme.text('Read-only: plans and backups read; nothing that writes runs.'), width, theme.ellipsis)}</Text>
      ) : null}
      <Box flexDirection="column" marginTop={shortScreen ? 0 : 1} height={rows} overflow="hidden">
        <StageBody
          slice={slice}
          width={width}
          rows={rows}
          cursor={cursor}
          {...(nav.editing ? { editing: nav.editing } : {})}
          onSubmit={submit}
        />
      </Box>
    </Box>
  );
}
