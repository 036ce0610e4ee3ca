/** The wizard's choice pages: hosting context, namespace, workload contexts and their names, HA, topology key, validity. */
import { MultiSelect, Select, TextInput } from '@inkjs/ui';
import type { Dispatch } from 'react';
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

function WorkloadsPage({ others, selected, dispatch }: { others: string[]; selected: string[]; dispatch: Dispatch<WizardAction> }) {
  if (!others.length) return <NoOthers onContinue={() => dispatch({ type: 'workloads', contexts: [] })} />;
  return (
    <MultiSelect
      options={others.map((c) => ({ label: c, value: c }))}
      defaultValue={selected}
      visibleOptionCount={10}
      onSubmit={(contexts) => dispatch({ type: 'workloads', contexts })}
    />
  );
}

/** The page of one choice, or null when the page is not a choice. */
export function ChoicePage({ state, contexts, dispatch }: { state: WizardState; contexts: string[]; dispatch: Dispatch<WizardAction> }) {
  const { page, choices } = state;
  const currentName = choices.workloads[state.nameIndex];
  switch (page) {
    case 'hosting':
      return (
        <Select
          // The current choice first: Select reports a choice only when it differs from its value.
          options={firstOf(contexts, choices.hosting).map((c) => ({ label: c, value: c }))}
          visibleOptionCount={10}
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
      return <WorkloadsPage others={contexts.filter((c) => c !== choices.hosting)} selected={choices.workloads} dispatch={dispatch} />;
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
        <Select options={firstOf(HA_OPTIONS, choices.ha ? 'ha' : 'single')} onChange={(v) => dispatch({ type: 'ha', ha: v === 'ha' })} />
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
