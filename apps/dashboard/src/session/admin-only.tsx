import { Outlet } from 'react-router';
import { useRoleAtLeast } from './session';

/** Pages for admins; the API refuses the others anyway (403), this says so instead of an empty page. */
export function AdminOnly() {
  if (!useRoleAtLeast('admin'))
    return (
      <p className="state state-error" role="alert">
        This page is for admins.
      </p>
    );
  return <Outlet />;
}
