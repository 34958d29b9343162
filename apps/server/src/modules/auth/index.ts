export { createAuthSetup, publicUrlOf, type AuthSetup } from './auth-setup';
export { DEMO_USERS, type DemoUser } from './demo-users';
