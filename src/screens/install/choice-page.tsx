/** The wizard's choice pages: hosting context, namespace, workload contexts and their names, HA, topology key, validity. */
import { MultiSelect, Select, TextInput } from '@inkjs/ui';
import type { Dispatch } from 'react';
import { type Theme, truncate, useTheme } from '../../components/theme/index.js';
import type { WizardAction, WizardState } from './use-wizard-state.js';
import { NoOthers } from './wizard-pages.js';

/** `items` with `first` (an item, or the item whose value it is) moved to the front. */
function firstOf<T extends string | { value: string }>(items: T[], first: string | undefined): T[] {
  const is = (x: T) => (typeof x === 'string' ? x : x.value) === first;
  return [...items.filter(is), ...items.filter((x) => !is(x))];
}

const HA_OPTIONS = [
  { label: 'Highly available: 3 replicas of each component, spread by a topology key', value: 'ha' },
  { label: 'Single replica of each component', value: 'single' },
];

interface Room {
  width: number;
  rows: number;
}

/** Options shown at once: ten, or what the rows allow. */
const visible = (rows: number) => Math.max(1, Math.min(10, rows));

/** An option's label cut to the width (after the pointer and the checkbox). */
const label = (theme: Theme, text: string, width: number) => truncate(theme.text(text), Math.max(8, width - 6), theme.ellipsis);

function WorkloadsPage({
  others,
  selected,
  room,
  dispatch,
}: {
  others: string[];
  selected: string[];
  room: Room;
  dispatch: Dispatch<WizardAction>;
}) {
  const theme = useTheme();
  if (!others.length) return <NoOthers width={room.width} />;
  return (
    <MultiSelect
      options={others.map((c) => ({ label: label(theme, c, room.width), value: c }))}
      defaultValue={selected}
      visibleOptionCount={visible(room.rows)}
      onSubmit={(contexts) => dispatch({ type: 'workloads', contexts })}
    />
  );
}

/** The page of one choice, or null when the page is not a choice. */
export function ChoicePage({
  state,
  contexts,
  width,
  rows,
  dispatch,
}: {
  state: WizardState;
  contexts: string[];
  width: number;
  rows: number;
  dispatch: Dispatch<WizardAction>;
}) {
  const theme = useTheme();
  const { page, choices } = state;
  const currentName = choices.workloads[state.nameIndex];
  switch (page) {
    case 'hosting':
      return (
        <Select
          // The current choice first: Select reports a choice only when it differs from its value.
          options={firstOf(contexts, choices.hosting).map((c) => ({ label: label(theme, c, width), value: c }))}
          visibleOptionCount={visible(rows)}
          onChange={(context) => dispatch({ type: 'hosting', context })}
        />
      );
    case 'namespace':
      return (
        <TextInput
          key="namespace"
          defaultValue={choices.namespace}
          onSubmit={(value) => dispatch({ type: 'namespace', value: value.trim() })}
        />
      );
    case 'workloads':
      return (
        <WorkloadsPage
          others={contexts.filter((c) => c !== choices.hosting)}
          selected={choices.workloads}
          room={{ width, rows }}
          dispatch={dispatch}
        />
      );
    case 'names':
      if (!currentName) return null;
      return (
        <TextInput
          key={`name:${currentName}`}
          defaultValue={choices.clusterNames[currentName] ?? currentName}
          onSubmit={(value) => dispatch({ type: 'clusterName', value: value.trim() })}
        />
      );
    case 'ha':
      return (
        <Select
          options={firstOf(HA_OPTIONS, choices.ha ? 'ha' : 'single').map((o) => ({ ...o, label: label(theme, o.label, width) }))}
          onChange={(v) => dispatch({ type: 'ha', ha: v === 'ha' })}
        />
      );
    case 'topology':
      return (
        <TextInput
          key="topology"
          defaultValue={choices.topologyKey}
          onSubmit={(value) => dispatch({ type: 'topologyKey', value: value.trim() })}
        />
      );
    case 'validity':
      return (
        <TextInput
          key="validity"
          defaultValue={String(choices.validityYears)}
          onSubmit={(value) => dispatch({ type: 'validity', value: value.trim() })}
        />
      );
    default:
      return null;
  }
}
