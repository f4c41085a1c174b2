/**
 * Sign-in: the `/signin` screen (Amplify UI Authenticator). Import from here (`features/auth`); the session itself is
 * shared code in `lib/auth`.
 */
export { SignInPage, authenticatorServices } from './components/SignInPage';
