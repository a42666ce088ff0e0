import type { Messages } from './zh-CN';

const enUS: Messages = {
  alteration: {
    title: 'Reset password',
    stepVerify: 'Verify',
    stepPassword: 'New password',
    stepDone: 'Done',
    byEmail: 'By email',
    byPhone: 'By phone',
    email: 'email of the account',
    phone: 'phone number',
    code: 'verification code',
    newPassword: 'new password',
    confirmPassword: 'new password again',
    submit: 'Reset password',
    failed: 'Password reset failed',
    doneTitle: 'Password reset successful!',
    countdown: 'Back to the login page in {{seconds}} seconds',
    toLogin: 'Log in now',
    backToLogin: 'Back to login',
  },
};

export default enUS;
