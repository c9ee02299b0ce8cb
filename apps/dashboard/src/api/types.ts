export type Role = 'viewer' | 'editor' | 'admin';

export interface DashboardUser {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
}

export interface DashboardEnvironment {
  id: string;
  name: string;
}

export interface SessionAnswer {
  user: DashboardUser;
  session: { id: string; expiresAt: string };
  csrfToken: string;
  environments: DashboardEnvironment[];
}

interface ExecutionDetail {
  _id: string;
  createdAt: string;
  status: string;
  detail: string;
  providerId?: string;
  raw: string | null;
}

export interface NotificationJob {
  _id: string;
  type: string;
  status: string;
  providerId: string;
  updatedAt: string;
  executionDetails: ExecutionDetail[];
}

export interface NotificationItem {
  _id: string;
  transactionId: string;
  createdAt: string;
  channels: string[];
  subscriber?: { subscriberId: string; firstName?: string; lastName?: string; email?: string };
  template?: { _id: string; name: string };
  jobs: NotificationJob[];
  payload: Record<string, unknown>;
}

export interface NotificationPage {
  data: NotificationItem[];
  hasMore: boolean;
  page: number;
  pageSize: number;
}

export interface Message {
  _id: string;
  _notificationId: string;
  channel: string;
  subject?: string;
  content: unknown;
  providerId?: string;
  read: boolean;
  seen: boolean;
}

export interface WorkflowSummary {
  _id: string;
  name: string;
  triggers: { identifier: string }[];
}
