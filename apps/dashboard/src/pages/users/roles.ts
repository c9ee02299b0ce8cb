import type { Role } from '../../api/types';

export const ROLES: Role[] = ['viewer', 'editor', 'admin'];
