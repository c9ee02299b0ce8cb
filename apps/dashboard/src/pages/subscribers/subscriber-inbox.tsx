import { useEffect, useRef, useState } from 'react';
import { ErrorState, Loading } from '../../ui/states';
import { useApplicationIdentifier } from './subscribers-api';

/**
 * Novu's own Inbox (`@novu/js/ui`, the code behind `<Inbox />`) pointed at this service, showing what the
 * subscriber sees: a product's inbox and this one run the same client. Loaded on demand, so its code is not
 * part of the dashboard's first load.
 */
export function SubscriberInbox({ subscriberId }: { subscriberId: string }) {
  const application = useApplicationIdentifier();
  const element = useRef<HTMLDivElement>(null);
  const [failure, setFailure] = useState<unknown>();
  const identifier = application.data?.identifier;

  useEffect(() => {
    const target = element.current;
    if (!identifier || !target) return;
    let unmount: (() => void) | undefined;
    let cancelled = false;
    import('@novu/js/ui')
      .then(({ NovuUI }) => {
        if (cancelled) return;
        const origin = window.location.origin;
        const ui = new NovuUI({
          options: { applicationIdentifier: identifier, subscriber: subscriberId, apiUrl: origin, socketUrl: origin },
        });
        ui.mountComponent({ name: 'Inbox', element: target });
        unmount = () => ui.unmountComponent(target);
      })
      .catch(setFailure);
    return () => {
      cancelled = true;
      unmount?.();
    };
  }, [identifier, subscriberId]);

  if (application.isError) return <ErrorState error={application.error} />;
  if (failure) return <ErrorState error={failure} />;
  return (
    <>
      {application.isPending ? <Loading label="Starting the inbox" /> : null}
      <div ref={element} className="subscriber-inbox" />
    </>
  );
}
