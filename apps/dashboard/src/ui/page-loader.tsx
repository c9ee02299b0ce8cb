import { Component, Suspense, type ReactNode } from 'react';
import { Loading } from './states';

interface BoundaryState {
  error?: Error;
}

/**
 * A page that failed to load or render (its chunk still missing after the reload that should have fetched it)
 * says so in place, with a way to try again, instead of taking the whole app down to a blank page.
 */
class PageErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = {};

  static getDerivedStateFromError(error: Error): BoundaryState {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="state state-error" role="alert">
        <p>This page could not be loaded: {this.state.error.message}</p>
        <button type="button" onClick={() => location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}

/**
 * A page loaded when first shown (lazy-pages.ts): a loading state meanwhile, an error state if it fails.
 * `pageKey` (the path) starts the page afresh, error included, when the user goes elsewhere.
 */
export function PageLoader({ pageKey, children }: { pageKey: string; children: ReactNode }) {
  return (
    <PageErrorBoundary key={pageKey}>
      <Suspense fallback={<Loading label="Loading the page" />}>{children}</Suspense>
    </PageErrorBoundary>
  );
}
