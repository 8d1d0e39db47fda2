import { useEffect, useState, type ReactElement } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, detectPreviewEndpoint } from './api/client';
import { queryClient } from './api/query-client';
import { queryKeys } from './api/query-keys';
import { onConnectionChange } from './api/http';
import { Icon } from './components/Icon';
import { Button } from './components/ui';
import { Sidebar } from './components/Sidebar';
import { Toasts } from './components/Toasts';
import { BatchScreen } from './features/batches/BatchScreen';
import { BatchesScreen } from './features/batches/BatchesScreen';
import { BatchWizard } from './features/batch-wizard/BatchWizard';
import { BrandKitScreen } from './features/brand/BrandKitScreen';
import { CatalogScreen } from './features/catalog/CatalogScreen';
import { CreditsScreen } from './features/credits/CreditsScreen';
import { EditorScreen } from './features/editor/EditorScreen';
import { LocalApiScreen } from './features/local-api/LocalApiScreen';
import { SettingsScreen } from './features/settings/SettingsScreen';
import { TemplateScreen } from './features/template/TemplateScreen';
import { WorkspaceScreen } from './features/workspace/WorkspaceScreen';
import { useT } from './i18n/i18n';
import { native } from './native/native';
import { useAppStore } from './stores/app-store';
import { useFocusOnNavigate } from './router/focus-on-navigate';
import { routePath, type Route } from './router/routes';

const SPREADSHEET = /\.(csv|tsv|txt|xlsx|xlsm)$/i;
/** How often the app knocks while the core is unreachable. */
const KNOCK_MS = 2000;

export function App(): ReactElement {
  const route = useAppStore((s) => s.route);
  const language = useAppStore((s) => s.language);
  useBootstrap();
  useTheme();
  const dragging = useWindowDrop();
  const t = useT();
  useFocusOnNavigate(routePath(route));

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <Sidebar />
      <main className="main" id="main" tabIndex={-1}>
        <ConnectionBanner />
        <Screen route={route} />
      </main>
      <Toasts />
      {dragging ? (
        <div className="drop-overlay" aria-hidden>
          <div>
            <Icon name="table" size={22} />
            {/* On My templates a dropped .zip is a template pack, anywhere else a spreadsheet. */}
            {route.name === 'workspace' ? t('workspace.drop.overlay') : t('wizard.drop.anywhere')}
          </div>
        </div>
      ) : null}
    </div>
  );
}

function Screen({ route }: { route: Route }): ReactElement {
  const t = useT();
  const navigate = useAppStore((s) => s.navigate);
  switch (route.name) {
    case 'catalog':
      return <CatalogScreen />;
    case 'template':
      return <TemplateScreen key={route.id} id={route.id} />;
    case 'workspace':
      return <WorkspaceScreen />;
    case 'editor':
      return <EditorScreen key={route.id} id={route.id} />;
    case 'wizard':
      return <BatchWizard templateId={route.templateId} />;
    case 'batches':
      return <BatchesScreen />;
    case 'batch':
      return <BatchScreen key={route.id} id={route.id} />;
    case 'brand':
      return <BrandKitScreen />;
    case 'credits':
      return <CreditsScreen />;
    case 'api':
      return <LocalApiScreen />;
    case 'settings':
      return <SettingsScreen />;
    case 'not-found':
      return (
        <div className="page">
          <div className="empty">
            <h1>{t('common.notFound')}</h1>
            <Button variant="primary" onClick={() => navigate({ name: 'catalog' })}>
              {t('common.goCatalog')}
            </Button>
          </div>
        </div>
      );
  }
}

function useBootstrap(): void {
  const setConnection = useAppStore((s) => s.setConnection);
  const syncRoute = useAppStore((s) => s.syncRouteFromLocation);
  const loadSystem = useAppStore((s) => s.loadSystem);
  const navigate = useAppStore((s) => s.navigate);
  const savePreferences = useAppStore((s) => s.savePreferences);

  useEffect(() => {
    onConnectionChange(setConnection);
    void loadSystem().catch(() => {});
    void detectPreviewEndpoint().then((previewFree) => useAppStore.setState({ previewFree }));
    const onPop = () => syncRoute();
    window.addEventListener('popstate', onPop);
    const offMenu = native.onMenuCommand((command) => {
      switch (command) {
        case 'open-spreadsheet':
        case 'new-batch':
          navigate({ name: 'wizard', templateId: useAppStore.getState().wizard.templateId });
          break;
        case 'show-catalog':
          navigate({ name: 'catalog' });
          break;
        case 'show-batches':
          navigate({ name: 'batches' });
          break;
        case 'show-settings':
          navigate({ name: 'settings' });
          break;
        case 'toggle-theme': {
          const dark = document.documentElement.dataset.theme === 'dark';
          void savePreferences({ theme: dark ? 'light' : 'dark' }).catch(() => {});
          break;
        }
      }
    });
    return () => {
      window.removeEventListener('popstate', onPop);
      offMenu();
    };
  }, [setConnection, syncRoute, loadSystem, navigate, savePreferences]);

  // While the core is unreachable, knock every two seconds; once it answers, what the screens
  // show is fetched again.
  const offline = useAppStore((s) => s.connection === 'offline');
  const knock = useQuery({
    queryKey: queryKeys.coreKnock,
    queryFn: () => api.system.get(),
    enabled: offline,
    refetchInterval: offline ? KNOCK_MS : false,
    gcTime: 0,
  });
  const answered = knock.dataUpdatedAt;
  useEffect(() => {
    if (answered === 0) return;
    void queryClient.invalidateQueries({
      predicate: (query) => query.queryKey[0] !== queryKeys.coreKnock[0],
    });
  }, [answered]);
}

function useTheme(): void {
  const theme = useAppStore((s) => s.preferences.theme);
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      const dark = theme === 'dark' || (theme === 'system' && media.matches);
      document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    };
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [theme]);
}

/** A spreadsheet dropped anywhere on the window starts (or feeds) the batch wizard. */
function useWindowDrop(): boolean {
  const [dragging, setDragging] = useState(false);
  const navigate = useAppStore((s) => s.navigate);
  const useFile = useAppStore((s) => s.wizardUseFile);
  useEffect(() => {
    let depth = 0;
    const hasFiles = (event: DragEvent) =>
      Array.from(event.dataTransfer?.types ?? []).includes('Files');
    const onEnter = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      depth += 1;
      setDragging(true);
    };
    const onLeave = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onOver = (event: DragEvent) => {
      if (hasFiles(event)) event.preventDefault();
    };
    // Capture phase: a drop zone that stops the event (the wizard's, an image field's) must still
    // take the overlay down.
    const onDropCapture = () => {
      depth = 0;
      setDragging(false);
    };
    const onDrop = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      const file = Array.from(event.dataTransfer?.files ?? []).find((f) =>
        SPREADSHEET.test(f.name),
      );
      if (!file) return;
      const state = useAppStore.getState();
      if (state.route.name !== 'wizard') {
        navigate({ name: 'wizard', templateId: state.wizard.templateId });
      }
      void useFile(file);
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('dragover', onOver);
    window.addEventListener('drop', onDrop);
    window.addEventListener('drop', onDropCapture, true);
    window.addEventListener('dragend', onDropCapture, true);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('drop', onDrop);
      window.removeEventListener('drop', onDropCapture, true);
      window.removeEventListener('dragend', onDropCapture, true);
    };
  }, [navigate, useFile]);
  return dragging;
}

function ConnectionBanner(): ReactElement | null {
  const connection = useAppStore((s) => s.connection);
  const t = useT();
  if (connection === 'online') return null;
  if (connection === 'offline') {
    return (
      <div className="conn-banner" role="status">
        <span className="spinner" aria-hidden />
        <strong>{t('conn.offline')}</strong>
        <span className="muted">{t('conn.offline.detail')}</span>
      </div>
    );
  }
  return (
    <div className="conn-banner" role="alert">
      <Icon name="lock" />
      <strong>{t('conn.unauthorized')}</strong>
      <span className="muted grow">{t('conn.unauthorized.detail')}</span>
      <Button size="sm" icon="refresh" onClick={() => location.reload()}>
        {t('conn.retry')}
      </Button>
    </div>
  );
}
