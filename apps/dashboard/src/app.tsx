import { Navigate, Route, Routes } from 'react-router';
import { Shell } from './layout/shell';
import { ActivityPage } from './pages/activity/activity-page';
import { NotificationPage } from './pages/activity/notification-page';
import { ContextPage } from './pages/contexts/context-page';
import { ContextsPage } from './pages/contexts/contexts-page';
import { VariablePage } from './pages/environment-variables/variable-page';
import { VariablesPage } from './pages/environment-variables/variables-page';
import { EnvironmentsPage } from './pages/environments/environments-page';
import { IntegrationPage } from './pages/integrations/integration-page';
import { IntegrationsPage } from './pages/integrations/integrations-page';
import { NewIntegrationPage } from './pages/integrations/new-integration-page';
import { LayoutPage } from './pages/layouts/layout-page';
import { LayoutsPage } from './pages/layouts/layouts-page';
import { NotFoundPage } from './pages/not-found-page';
import { LoginPage } from './pages/sign-in/login-page';
import { SetupPage } from './pages/sign-in/setup-page';
import { SubscriberPage } from './pages/subscribers/subscriber-page';
import { SubscribersPage } from './pages/subscribers/subscribers-page';
import { SystemPage } from './pages/system/system-page';
import { TopicPage } from './pages/topics/topic-page';
import { TopicsPage } from './pages/topics/topics-page';
import { UsersPage } from './pages/users/users-page';
import { WorkflowPage } from './pages/workflows/workflow-page';
import { WorkflowsPage } from './pages/workflows/workflows-page';
import { AdminOnly } from './session/admin-only';
import { SignedIn } from './session/signed-in';

/** Every page has a path of its own under /dashboard, so any view can be linked to and reloaded. */
export function App() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/setup" element={<SetupPage />} />
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
