import type { MouseEvent, ReactElement } from 'react';
import { formatNumber, useT, type MessageKey } from '../i18n/i18n';
import { routePath, type Route } from '../router/routes';
import { useAppStore } from '../stores/app-store';
import { Icon, type IconName } from './Icon';
import { useAccount } from '../api/use-account';
import { useBatchList } from '../api/use-batch-list';

const SECTIONS: { route: Route; label: MessageKey; icon: IconName }[][] = [
  [
    { route: { name: 'catalog' }, label: 'nav.catalog', icon: 'grid' },
    { route: { name: 'workspace' }, label: 'nav.workspace', icon: 'palette' },
    { route: { name: 'wizard', templateId: null }, label: 'nav.newBatch', icon: 'sparkles' },
    { route: { name: 'batches' }, label: 'nav.batches', icon: 'layers' },
  ],
  [
    { route: { name: 'brand' }, label: 'nav.brand', icon: 'palette' },
    { route: { name: 'credits' }, label: 'nav.credits', icon: 'coins' },
    { route: { name: 'api' }, label: 'nav.api', icon: 'code' },
    { route: { name: 'settings' }, label: 'nav.settings', icon: 'settings' },
  ],
];

function isCurrent(current: Route, target: Route): boolean {
  if (target.name === 'catalog')
    return (
      current.name === 'catalog' || (current.name === 'template' && !current.id.startsWith('wtpl_'))
    );
  if (target.name === 'workspace')
    return (
      current.name === 'workspace' ||
      current.name === 'editor' ||
      (current.name === 'template' && current.id.startsWith('wtpl_'))
    );
  if (target.name === 'batches') return current.name === 'batches' || current.name === 'batch';
  return current.name === target.name;
}

/** A link that navigates inside the app (and still opens with a middle click). */
export function AppLink({
  to,
  className,
  children,
  ...rest
}: {
  to: Route;
  className?: string;
  children: React.ReactNode;
  'aria-current'?: 'page' | undefined;
  'aria-label'?: string;
}): ReactElement {
  const navigate = useAppStore((s) => s.navigate);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={routePath(to)} className={className} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}

export function Sidebar(): ReactElement {
  const route = useAppStore((s) => s.route);
  const balance = useAccount().data?.balance;
  const language = useAppStore((s) => s.language);
  const running =
    useBatchList('cached').data?.filter((b) => b.status === 'running' || b.status === 'queued')
      .length ?? 0;
  const wizardTemplate = useAppStore((s) => s.wizard.templateId);
  const t = useT();
  return (
    <nav className="sidebar" aria-label={t('nav.main')}>
      <div className="brandmark">
        <span className="brandmark-logo" aria-hidden>
          <Icon name="image" size={14} />
        </span>
        {t('app.name')}
      </div>
      {SECTIONS.map((section, i) => (
        <div className="nav-section" key={i}>
          {section.map((item) => {
            const to =
              item.route.name === 'wizard'
                ? { name: 'wizard' as const, templateId: wizardTemplate }
                : item.route;
            return (
              <AppLink
                key={item.label}
                to={to}
                className="nav-link"
                aria-current={isCurrent(route, item.route) ? 'page' : undefined}
              >
                <Icon name={item.icon} />
                {t(item.label)}
                {item.route.name === 'batches' && running > 0 ? (
                  <span className="nav-badge badge accent running">{running}</span>
                ) : null}
              </AppLink>
            );
          })}
        </div>
      ))}
      <div className="sidebar-footer">
        <AppLink to={{ name: 'credits' }} className="credit-pill">
          <Icon name="coins" />
          <span>
            <strong>{balance === undefined ? '—' : formatNumber(language, balance)}</strong>{' '}
            {balance === undefined ? '' : t('nav.credits.unit')}
          </span>
        </AppLink>
      </div>
    </nav>
  );
}
