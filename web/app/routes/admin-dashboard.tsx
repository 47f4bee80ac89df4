import { AdminShell } from '../features/admin';

/** Admin dashboard: never prerendered, never in public bundles. */
export const meta = () => [{ title: 'Dashboard amministratori' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function AdminDashboard() {
  return <AdminShell />;
}
