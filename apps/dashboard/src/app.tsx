import { Navigate, Route, Routes } from 'react-router';
import { Shell } from './layout/shell';
import {
  ContextPage,
  ContextsPage,
  EnvironmentsPage,
  IntegrationPage,
  IntegrationsPage,
  LayoutPage,
  LayoutsPage,
  NewIntegrationPage,
  NotificationPage,
  SetupPage,
  SubscriberPage,
  SubscribersPage,
  SystemPage,
  TopicPage,
  TopicsPage,
  UsersPage,
  VariablePage,
  VariablesPage,
  WorkflowPage,
  WorkflowsPage,
} from './lazy-pages';
import { ActivityPage } from './pages/activity/activity-page';
import { NotFoundPage } from './pages/not-found-page';
import { LoginPage } from './pages/sign-in/login-page';
import { AdminOnly } from './session/admin-only';
import { SignedIn } from './session/signed-in';
import { PageLoader } from './ui/page-loader';

/** Every page has a path of its own under /dashboard, so any view can be linked to and reloaded. */
export function App() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route
        path="/setup"
        element={
          <PageLoader pageKey="setup">
            <SetupPage />
          </PageLoader>
        }
      />
      <Route element={<SignedIn />}>
        <Route element={<Shell />}>
          <Route index element={<Navigate to="/activity" replace />} />
          <Route path="/activity" element={<ActivityPage />} />
          <Route path="/activity/:notificationId" element={<NotificationPage />} />
          <Route path="/workflows" element={<WorkflowsPage />} />
          <Route path="/workflows/:workflowId" element={<WorkflowPage />} />
          <Route path="/subscribers" element={<SubscribersPage />} />
          <Route path="/subscribers/:subscriberId" element={<SubscriberPage />} />
          <Route path="/topics" element={<TopicsPage />} />
          <Route path="/topics/:topicKey" element={<TopicPage />} />
          <Route path="/integrations" element={<IntegrationsPage />} />
          <Route path="/integrations/new" element={<NewIntegrationPage />} />
          <Route path="/integrations/:integrationId" element={<IntegrationPage />} />
          <Route path="/layouts" element={<LayoutsPage />} />
          <Route path="/layouts/:layoutId" element={<LayoutPage />} />
          <Route path="/contexts" element={<ContextsPage />} />
          <Route path="/contexts/:type/:id" element={<ContextPage />} />
          <Route path="/environment-variables" element={<VariablesPage />} />
          <Route path="/environment-variables/:variableKey" element={<VariablePage />} />
          <Route path="/environments" element={<EnvironmentsPage />} />
          <Route path="/system" element={<SystemPage />} />
          <Route element={<AdminOnly />}>
            <Route path="/users" element={<UsersPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
