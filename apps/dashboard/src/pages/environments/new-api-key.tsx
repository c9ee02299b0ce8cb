import { useState } from 'react';
import type { CreatedApiKey } from './api-keys-api';

/** The key the create answered: the only time anyone sees it, so it can be copied from here. */
export function NewApiKey({ created }: { created: CreatedApiKey }) {
  const [copied, setCopied] = useState<'yes' | 'failed'>();
  const copy = () =>
    navigator.clipboard.writeText(created.key).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  return (
    <div role="status" className="api-key">
      <p>
        New API key (shown once, keep it): <code aria-label="New API key">{created.key}</code>{' '}
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
      </p>
      {copied === 'yes' ? <p>Copied to the clipboard.</p> : null}
      {copied === 'failed' ? <p>The browser refused the clipboard: select the key and copy it.</p> : null}
    </div>
  );
}
