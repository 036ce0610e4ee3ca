/**
 * The layers (docs/design.md, The layers): kube → workflows → feeds → store → screens, commands on top.
 * `npm run lint` runs this; a violation fails it.
 */
const WORKFLOWS = '^src/(install|day2|rollout|storage|preflight|logs|backup|placement)/';

module.exports = {
  forbidden: [
    {
      name: 'kube-imports-nothing-above',
      comment:
        'src/kube talks to clusters and imports nothing above it; it writes through the sink interface. ' +
        'Named positively: of src, only src/kube and the two base-layer leaves (the error classes, the duration formatter).',
      severity: 'error',
      from: { path: '^src/kube/' },
      to: { path: '^src/', pathNot: '^src/(kube/|errors\\.ts$|duration\\.ts$)' },
    },
    {
      name: 'client-node-only-in-kube',
      comment: 'Only src/kube (and the sandbox, which plays the kubelet) calls the Kubernetes API; elsewhere only its types.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(kube|sandbox|bench)/' },
      to: { path: '@kubernetes/client-node', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'workflows-below-feeds-and-screens',
      comment: 'Workflows are plain async functions: no store, feeds, screens, components, commands or React.',
      severity: 'error',
      from: { path: WORKFLOWS },
      to: { path: ['^src/(store|feeds|screens|components|commands|session)/', '^node_modules/(react|ink|@inkjs|zustand)/'] },
    },
    {
      name: 'workflows-import-nothing-from-report',
      comment: "Workflows sit below plain output: src/report reads the workflows' results, never the other way (not even a type).",
      severity: 'error',
      from: { path: WORKFLOWS },
      to: { path: '^src/report/' },
    },
    {
      name: 'store-below-feeds-and-screens',
      comment: 'The store holds summaries; it does not start watches or draw.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: ['^src/(feeds|screens|components|commands|session|report)/', '^node_modules/(react|ink|@inkjs)/'] },
    },
    {
      name: 'store-holds-workflow-types-only',
      comment: "The tabs' slices hold the workflows' summaries (a rollout's state, a node's storage): their types, never their code.",
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/(install|day2|rollout|storage|preflight)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'checklist-is-a-leaf',
      comment: 'The checklist model is used by every layer and depends on none (but the one duration formatter, itself a leaf).',
      severity: 'error',
      from: { path: '^src/checklist/' },
      to: { path: '^src/(?!checklist/|duration\\.ts$)' },
    },
    {
      name: 'duration-is-a-leaf',
      comment: 'The one duration formatter is used by every layer, src/kube included, and imports nothing.',
      severity: 'error',
      from: { path: '^src/duration\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'screens-select-and-dispatch',
      comment: 'Screens and components read the store and dispatch actions; they never call src/kube or start workflows themselves.',
      severity: 'error',
      from: { path: '^src/(screens|components|report)/' },
      to: { path: ['^src/(kube|feeds|commands|session)/', '@kubernetes/client-node'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'screens-import-no-workflow-values',
      comment: "Screens and components show the workflows' summaries (their types); what a workflow decides or does reaches them through the store and its actions.",
      severity: 'error',
      from: { path: '^src/(screens|components)/' },
      to: { path: WORKFLOWS, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'components-are-generic',
      comment: 'Reusable Ink pieces know nothing of screens, the store or commands.',
      severity: 'error',
      from: { path: '^src/components/' },
      to: { path: '^src/(screens|store|commands|feeds|session)/' },
    },
    {
      name: 'feeds-below-screens',
      severity: 'error',
      from: { path: '^src/feeds/' },
      to: { path: ['^src/(screens|components|commands)/', '^node_modules/(react|ink|@inkjs)/'] },
    },
    {
      name: 'no-cycles',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
