import { useEffect, type ReactElement } from 'react';
import { useT } from '../i18n/i18n';
import { useAppStore } from '../stores/app-store';
import { Icon } from './Icon';

/**
 * Which service this page renders on: this computer, or a team service (a cluster serving the
 * same app). Shown on the first screen so nobody spends the team's credits by mistake.
 */
export function ServiceBadge(): ReactElement | null {
  const t = useT();
  const system = useAppStore((s) => s.system);
  const loadSystem = useAppStore((s) => s.loadSystem);
  useEffect(() => {
    if (!system) void loadSystem().catch(() => undefined);
  }, [system, loadSystem]);
  if (!system) return null;
  const team = system.mode === 'cluster';
  return (
    <p className={`service-badge${team ? ' team' : ''}`} data-testid="service-badge">
      <Icon name={team ? 'globe' : 'grid'} />
      <span className="visually-hidden">{t('service.label')} </span>
      <span>{team ? t('service.team', { host: window.location.host }) : t('service.local')}</span>
    </p>
  );
}
