import { lazy } from 'react';

/*
 * Every page but Activity (the one the dashboard opens on) and the login, each in a chunk of its own loaded when
 * first shown: the first load compiles and runs only what its page needs. The app shows them inside a Suspense.
 */
export const NotificationPage = lazy(() =>
  import('./pages/activity/notification-page').then((module) => ({ default: module.NotificationPage })),
);
export const ContextPage = lazy(() =>
  import('./pages/contexts/context-page').then((module) => ({ default: module.ContextPage })),
);
export const ContextsPage = lazy(() =>
  import('./pages/contexts/contexts-page').then((module) => ({ default: module.ContextsPage })),
);
export const VariablePage = lazy(() =>
  import('./pages/environment-variables/variable-page').then((module) => ({ default: module.VariablePage })),
);
export const VariablesPage = lazy(() =>
  import('./pages/environment-variables/variables-page').then((module) => ({ default: module.VariablesPage })),
);
export const EnvironmentsPage = lazy(() =>
  import('./pages/environments/environments-page').then((module) => ({ default: module.EnvironmentsPage })),
);
export const IntegrationPage = lazy(() =>
  import('./pages/integrations/integration-page').then((module) => ({ default: module.IntegrationPage })),
);
export const IntegrationsPage = lazy(() =>
  import('./pages/integrations/integrations-page').then((module) => ({ default: module.IntegrationsPage })),
);
export const NewIntegrationPage = lazy(() =>
  import('./pages/integrations/new-integration-page').then((module) => ({ default: module.NewIntegrationPage })),
);
export const LayoutPage = lazy(() =>
  import('./pages/layouts/layout-page').then((module) => ({ default: module.LayoutPage })),
);
export const LayoutsPage = lazy(() =>
  import('./pages/layouts/layouts-page').then((module) => ({ default: module.LayoutsPage })),
);
export const SetupPage = lazy(() =>
  import('./pages/sign-in/setup-page').then((module) => ({ default: module.SetupPage })),
);
export const SubscriberPage = lazy(() =>
  import('./pages/subscribers/subscriber-page').then((module) => ({ default: module.SubscriberPage })),
);
export const SubscribersPage = lazy(() =>
  import('./pages/subscribers/subscribers-page').then((module) => ({ default: module.SubscribersPage })),
);
export const SystemPage = lazy(() =>
  import('./pages/system/system-page').then((module) => ({ default: module.SystemPage })),
);
export const TopicPage = lazy(() =>
  import('./pages/topics/topic-page').then((module) => ({ default: module.TopicPage })),
);
export const TopicsPage = lazy(() =>
  import('./pages/topics/topics-page').then((module) => ({ default: module.TopicsPage })),
);
export const UsersPage = lazy(() =>
  import('./pages/users/users-page').then((module) => ({ default: module.UsersPage })),
);
export const WorkflowPage = lazy(() =>
  import('./pages/workflows/workflow-page').then((module) => ({ default: module.WorkflowPage })),
);
export const WorkflowsPage = lazy(() =>
  import('./pages/workflows/workflows-page').then((module) => ({ default: module.WorkflowsPage })),
);
