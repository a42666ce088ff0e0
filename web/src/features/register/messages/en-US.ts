import type { Messages } from './zh-CN';

const enUS: Messages = {
  register: {
    title: 'Create an account',
    stepAccount: 'User account',
    stepEmail: 'Email verification',
    stepPassword: 'Password',
    stepDone: 'Done',
    username: 'username',
    usernameRule: 'Letters and digits only',
    phone: 'phone number',
    email: 'email',
    emailCode: 'email code',
    codeSent: 'Code sent, please check your mailbox',
    password: 'password',
    confirmPassword: 'password again',
    submit: 'Register',
    haveAccount: 'Log in with an existing account',
    failed: 'Registration failed',
    doneTitle: 'Your account {{username}} is registered',
    doneSubtitle:
      'You administer a company of your own. {{email}} can be used to reset your password.',
    toLogin: 'Log in',
  },
};

export default enUS;
