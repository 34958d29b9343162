export { createAuthSetup, publicUrlOf, type AuthSetup } from './auth-setup';
export { PUBLIC_AUTH_PATHS } from './auth.routes';
export { DEMO_USERS, type DemoUser } from './demo-users';
