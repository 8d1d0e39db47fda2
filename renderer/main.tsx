import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { queryClient } from './api/query-client';
import { startSession } from './api/session';
import { parseRoute } from './router/routes';
import { useAppStore } from './stores/app-store';
import { loadUiFonts } from './styles/fonts';
import './styles/tokens.css';
import './styles/base.css';
import './styles/components.css';
import './styles/screens.css';
import './styles/editor.css';
import './styles/brand-kit.css';
import './styles/sheets.css';

loadUiFonts();

// The app's first calls need the session; a launch link also changes the address.
void startSession().then(() => {
  useAppStore.setState({ route: parseRoute(location.pathname, location.search) });
  const root = document.getElementById('root');
  if (root) {
    createRoot(root).render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </StrictMode>,
    );
  }
});
