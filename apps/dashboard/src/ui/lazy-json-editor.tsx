import { lazy, Suspense, type ComponentProps } from 'react';
import { Loading } from './states';

const JsonEditor = lazy(() => import('./json-editor').then((module) => ({ default: module.JsonEditor })));

/** The JSON editor, its code fetched the first time a page shows one. */
export function LazyJsonEditor(props: ComponentProps<typeof JsonEditor>) {
  return (
    <Suspense fallback={<Loading label="Loading the editor" />}>
      <JsonEditor {...props} />
    </Suspense>
  );
}
