/** Which page of the Install tab is shown over its landing page: Prepare nodes (p), Day 2 (d). */
export interface InstallNav {
  prepare: boolean;
  day2: boolean;
}

export type InstallNavAction = { type: 'prepare' | 'day2' | 'closePrepare' | 'closeDay2' };

export const initialInstallNav: InstallNav = { prepare: false, day2: false };

export function installNavReducer(nav: InstallNav, action: InstallNavAction): InstallNav {
  switch (action.type) {
    case 'prepare':
      return { ...nav, prepare: true };
    case 'day2':
      return { ...nav, day2: true };
    case 'closePrepare':
      return { ...nav, prepare: false };
    case 'closeDay2':
      return { ...nav, day2: false };
  }
}
