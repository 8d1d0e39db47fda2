import type { ReactElement } from 'react';

export function SettingsScreen(): ReactElement {
  return <div className="page">SettingsScreen</div>;
}
