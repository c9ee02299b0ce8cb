import { useEffect, useRef, useState } from 'react';
import { ErrorState, Loading } from '../../ui/states';
import { useRoleAtLeast } from '../../session/session';
import { useApplicationIdentifier, useInboxPreviewHash } from './subscribers-api';

/**
 * Novu's own Inbox (`@novu/js/ui`, the code behind `<Inbox />`) pointed at this service, showing what the
 * subscriber sees: a product's inbox and this one run the same client. Loaded on demand, so its code is not
 * part of the dashboard's first load.
 */
export function SubscriberInbox({ subscriberId }: { subscriberId: string }) {
  const application = useApplicationIdentifier();
  const canSign = useRoleAtLeast('editor');
  const signature = useInboxPreviewHash(subscriberId, canSign);
  const subscriberHash = signature.data?.subscriberHash;
  const element = useRef<HTMLDivElement>(null);
  const [failure, setFailure] = useState<unknown>();
  const identifier = application.data?.identifier;

  useEffect(() => {
    const target = element.current;
    if (!identifier || !target || (canSign && !subscriberHash)) return;
    let unmount: (() => void) | undefined;
    let cancelled = false;
    import('@novu/js/ui')
      .then(({ NovuUI }) => {
        if (cancelled) return;
        const origin = window.location.origin;
        const ui = new NovuUI({
          options: {
            applicationIdentifier: identifier,
            subscriber: subscriberId,
            subscriberHash,
            apiUrl: origin,
            socketUrl: origin,
          },
        });
        ui.mountComponent({ name: 'Inbox', element: target });
        unmount = () => ui.unmountComponent(target);
      })
      .catch(setFailure);
    return () => {
      cancelled = true;
      unmount?.();
    };
  }, [identifier, subscriberId, canSign, subscriberHash]);

  if (application.isError) return <ErrorState error={application.error} />;
  if (signature.isError) return <ErrorState error={signature.error} />;
  if (failure) return <ErrorState error={failure} />;
  return (
    <>
      {application.isPending || (canSign && signature.isPending) ? <Loading label="Starting the inbox" /> : null}
      {canSign ? null : (
        <p className="hint">Where the environment requires HMAC, this preview opens for editors and admins only.</p>
      )}
      <div ref={element} className="subscriber-inbox" />
    </>
  );
}
