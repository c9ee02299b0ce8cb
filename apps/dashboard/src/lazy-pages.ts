import { lazy } from 'react';

/*
 * Every page but Activity (where the dashboard opens) and the sign-in pages is loaded the first time it is
 * shown: the script a first visit parses before Activity asks for its rows holds only what Activity needs.
 */

export const ContextPage = lazy(() =>
  import('./pages/contexts/context-page').then((module) => ({ default: module.ContextPage })),
);
export const ContextsPage = lazy(() =>
  import('./pages/contexts/contexts-page').then((module) => ({ default: module.ContextsPage })),
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
export const LayoutPage = lazy(() =>
  import('./pages/layouts/layout-page').then((module) => ({ default: module.LayoutPage })),
);
export const LayoutsPage = lazy(() =>
  import('./pages/layouts/layouts-page').then((module) => ({ default: module.LayoutsPage })),
);
export const NewIntegrationPage = lazy(() =>
  import('./pages/integrations/new-integration-page').then((module) => ({ default: module.NewIntegrationPage })),
);
export const NotificationPage = lazy(() =>
  import('./pages/activity/notification-page').then((module) => ({ default: module.NotificationPage })),
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
export const VariablePage = lazy(() =>
  import('./pages/environment-variables/variable-page').then((module) => ({ default: module.VariablePage })),
);
export const VariablesPage = lazy(() =>
  import('./pages/environment-variables/variables-page').then((module) => ({ default: module.VariablesPage })),
);
export const WorkflowPage = lazy(() =>
  import('./pages/workflows/workflow-page').then((module) => ({ default: module.WorkflowPage })),
);
export const WorkflowsPage = lazy(() =>
  import('./pages/workflows/workflows-page').then((module) => ({ default: module.WorkflowsPage })),
);
