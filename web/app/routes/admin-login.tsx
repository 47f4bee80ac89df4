import { LoginPage } from '../features/admin';

/** Admin login: never prerendered, never in public bundles. */
export const meta = () => [{ title: 'Accesso amministratori' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function AdminLogin() {
  return <LoginPage />;
}
