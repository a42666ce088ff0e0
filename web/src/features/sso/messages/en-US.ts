import type { Messages } from './zh-CN';

const enUS: Messages = {
  sso: {
    signingIn: 'Signing in…',
    denied: 'The sign-in was cancelled at the identity provider',
  },
};

export default enUS;
