/** The admin area's front door: the routes' two pages. */
export { AdminShell } from './admin-shell';
export { LoginPage } from './session/login-page';
