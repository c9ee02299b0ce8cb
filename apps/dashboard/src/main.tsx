// First: its requests go out before the modules below are evaluated.
import { seedQueries } from './early-requests';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { ApiError } from './api/client';
import { App } from './app';
import { reloadOnMissingChunk } from './reload-on-missing-chunk';
import './styles.css';

// A refusal (4xx) stays a refusal: only a failure of the server or the network is tried again, once.
const retryOnce = (failures: number, error: unknown) =>
  failures < 1 && !(error instanceof ApiError && error.status < 500);

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: retryOnce } } });

seedQueries(queryClient);
reloadOnMissingChunk();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter basename="/dashboard">
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
