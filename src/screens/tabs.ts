/** The four screens, in tab order; key 1–4 selects one. */
export const TABS = [
  { id: 'status', title: 'Status' },
  { id: 'install', title: 'Install' },
  { id: 'rollouts', title: 'Rollouts' },
  { id: 'storage', title: 'Storage' },
] as const;

export type TabId = (typeof TABS)[number]['id'];

export const TAB_TITLES: readonly string[] = TABS.map((t) => t.title);
