import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useRoleAtLeast, useSession } from '../session/session';
import { PageLoader } from '../ui/page-loader';

const PAGES = [
  { to: '/activity', label: 'Activity' },
  { to: '/workflows', label: 'Workflows' },
  { to: '/subscribers', label: 'Subscribers' },
  { to: '/topics', label: 'Topics' },
  { to: '/integrations', label: 'Integrations' },
  { to: '/layouts', label: 'Layouts' },
  { to: '/contexts', label: 'Contexts' },
  { to: '/environment-variables', label: 'Environment variables' },
  { to: '/environments', label: 'Environments' },
  { to: '/system', label: 'System' },
] as const;

function EnvironmentPicker() {
  const { environments, environment, chooseEnvironment } = useSession();
  return (
    <label className="environment-picker">
      Environment
      <select value={environment.id} onChange={(event) => chooseEnvironment(event.target.value)}>
        {environments.map((one) => (
          <option key={one.id} value={one.id}>
            {one.name}
          </option>
        ))}
      </select>
    </label>
  );
}

function UserMenu() {
  const { user, signOut } = useSession();
  const navigate = useNavigate();
  return (
    <div className="user-menu">
      <span>
        {user.email} <span className="role">({user.role})</span>
      </span>
      <button type="button" onClick={() => void signOut().then(() => navigate('/login'))}>
        Sign out
      </button>
    </div>
  );
}

/** The signed-in frame: navigation, the environment every call is scoped to, the user. */
export function Shell() {
  const isAdmin = useRoleAtLeast('admin');
  const location = useLocation();
  const pages = isAdmin ? [...PAGES, { to: '/users', label: 'Users' }] : PAGES;
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">Notifications</span>
        <EnvironmentPicker />
        <UserMenu />
      </header>
      <nav aria-label="Pages" className="sidebar">
        <ul>
          {pages.map((page) => (
            <li key={page.to}>
              <NavLink to={page.to}>{page.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main className="content">
        {/* The pages other than Activity load when first shown (lazy-pages.ts): the frame stays meanwhile. */}
        <PageLoader pageKey={location.pathname}>
          <Outlet />
        </PageLoader>
      </main>
    </div>
  );
}
