import { PASSWORD_MIN_LENGTH } from '@blrms/contracts';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Result } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, reportApiError } from '../../api/errors';
import { endSessionOnPurpose, logout } from '../../api/session';
import { sysApi } from '../../api/sys';
import { showFieldErrors } from '../../shared/field-errors';
import { LOGIN_PATH } from '../../shared/paths';

type PasswordForm = { oldpassword: string; password: string; confirmpassword: string };

/** Seconds shown before returning to the login page; the spec leaves the length open. */
const COUNTDOWN_SECONDS = 5;

async function backToLogin(): Promise<void> {
  await logout();
  window.location.replace(LOGIN_PATH);
}

/**
 * Spec sections 2 and 5. The server ends every session of the user on success, so the console
 * confirms and returns to the login page after a countdown.
 */
export function ChangePasswordModal({
  username,
  onClose,
}: {
  username: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordForm>();
  const [seconds, setSeconds] = useState<number | null>(null);

  const change = useMutation({
    mutationFn: (values: PasswordForm) => sysApi.updatePassword({ username, ...values }),
    onSuccess: () => {
      // The server ended every session of the user: the calls that fail until the countdown
      // ends are expected, not a reason to show on the login page.
      endSessionOnPurpose();
      void message.success(t('password.succeed'));
      setSeconds(COUNTDOWN_SECONDS);
    },
    onError: (error) => {
      // A refused change (wrong old password, weak new one) shows under its field; one that names
      // no field is a warning in the dialog's context; anything else (session, permission,
      // network) goes through the error catalogue.
      if (showFieldErrors(form, error)) return;
      if (error instanceof ApiError && error.status === 400) {
        void message.warning(error.message || t('password.failed'));
      } else if (error instanceof ApiError) {
        reportApiError(error);
      } else {
        void message.warning(t('password.failed'));
      }
    },
  });

  useEffect(() => {
    if (seconds === null) return;
    if (seconds <= 0) {
      void backToLogin();
      return;
    }
    const timer = window.setTimeout(() => setSeconds(seconds - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [seconds]);

  const label = {
    old: t('password.old'),
    new: t('password.new'),
    confirm: t('password.confirm'),
  };
  const required = (field: string) => ({
    required: true,
    message: t('password.required', { field }),
  });

  return (
    <Modal
      open
      title={t('password.title')}
      width={800}
      onCancel={seconds === null ? onClose : undefined}
      closable={seconds === null}
      maskClosable={false}
      onOk={() => form.submit()}
      confirmLoading={change.isPending}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      footer={seconds === null ? undefined : null}
      destroyOnHidden
    >
      <div data-testid="change-password-modal">
        {seconds === null ? (
          <Form<PasswordForm>
            form={form}
            labelCol={{ sm: { span: 5 } }}
            wrapperCol={{ sm: { span: 16 } }}
            onFinish={(values) => change.mutate(values)}
          >
            <Form.Item name="oldpassword" label={label.old} rules={[required(label.old)]}>
              <Input.Password autoComplete="current-password" data-testid="password-old" />
            </Form.Item>
            <Form.Item
              name="password"
              label={label.new}
              rules={[
                required(label.new),
                {
                  min: PASSWORD_MIN_LENGTH,
                  message: t('password.minLength', { field: label.new, min: PASSWORD_MIN_LENGTH }),
                },
              ]}
            >
              <Input.Password autoComplete="new-password" data-testid="password-new" />
            </Form.Item>
            <Form.Item
              name="confirmpassword"
              label={label.confirm}
              dependencies={['password']}
              rules={[
                required(label.confirm),
                ({ getFieldValue }) => ({
                  validator: (_, value: string | undefined) =>
                    !value || getFieldValue('password') === value
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('password.mismatch'))),
                }),
              ]}
            >
              <Input.Password autoComplete="new-password" data-testid="password-confirm" />
            </Form.Item>
          </Form>
        ) : (
          <Result
            status="success"
            title={t('password.succeed')}
            subTitle={
              <span data-testid="password-countdown">{t('password.countdown', { seconds })}</span>
            }
            extra={
              <Button type="primary" onClick={() => void backToLogin()}>
                {t('password.loginNow')}
              </Button>
            }
          />
        )}
      </div>
    </Modal>
  );
}
