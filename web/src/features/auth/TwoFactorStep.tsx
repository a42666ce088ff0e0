import { SafetyOutlined } from '@ant-design/icons';
import type { TLoginPending, TLoginResult, TTwoFactorLoginResult } from '@blrms/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Image, Input, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TWO_FACTOR_NS } from '../../app/i18n/two-factor';

import { ApiError } from '../../api/errors';
import { sysApi } from '../../api/sys';

type CodeForm = { code: string };

/**
 * The second login step, shown after a correct password: the code of the authenticator app (or a
 * recovery code), or, for a user who must use two-factor login and has not set it up, the
 * enrolment (QR code, first code, recovery codes) before any session exists. Loaded on demand so
 * that the login route stays light.
 */
export default function TwoFactorStep({
  pending,
  onLoggedIn,
  onCancel,
}: {
  pending: TLoginPending;
  onLoggedIn: (result: TLoginResult) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation(TWO_FACTOR_NS);
  const { t: tApp } = useTranslation();
  const [form] = Form.useForm<CodeForm>();
  const [error, setError] = useState<string | null>(null);
  const [enrolled, setEnrolled] = useState<TTwoFactorLoginResult | null>(null);
  const enrol = pending.twoFactor === 'enrol';
  const setup = useQuery({
    queryKey: ['twoFactorLoginSetup', pending.challenge],
    queryFn: () => sysApi.twoFactorLoginSetup(pending.challenge),
    enabled: enrol,
    staleTime: Infinity,
  });

  const verify = useMutation({
    mutationFn: (values: CodeForm) =>
      sysApi.twoFactorLogin({ challenge: pending.challenge, code: values.code.trim() }),
    onSuccess: (result) => {
      if (result.recoveryCodes) setEnrolled(result);
      else onLoggedIn(result);
    },
    onError: (e) => {
      setError(e instanceof ApiError && e.message ? e.message : tApp('login.failed'));
      form.setFieldValue('code', '');
    },
  });

  if (enrolled) {
    return (
      <div data-testid="two-factor-recovery">
        <Typography.Title level={4}>{t('recoveryTitle')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('recoveryIntro')}</Typography.Paragraph>
        <pre className="login-page__recovery" data-testid="two-factor-recovery-codes">
          {enrolled.recoveryCodes?.join('\n')}
        </pre>
        <Button
          type="primary"
          block
          onClick={() => onLoggedIn(enrolled)}
          data-testid="two-factor-continue"
        >
          {t('continue')}
        </Button>
      </div>
    );
  }

  return (
    <Form<CodeForm>
      form={form}
      size="large"
      onFinish={(values) => {
        setError(null);
        verify.mutate(values);
      }}
      onValuesChange={() => setError(null)}
      data-testid="two-factor-step"
    >
      <Typography.Title level={4}>{enrol ? t('enrolTitle') : t('loginTitle')}</Typography.Title>
      <Typography.Paragraph type="secondary">
        {enrol ? t('enrolIntro') : t('loginIntro')}
      </Typography.Paragraph>
      {enrol && (
        <div className="login-page__enrol">
          {setup.data ? (
            <>
              <Typography.Paragraph>{t('scan')}</Typography.Paragraph>
              <Image src={setup.data.qrCode} width={180} preview={false} alt="QR" />
              <Typography.Paragraph copyable={{ text: setup.data.secret }}>
                {t('secret')}: <code data-testid="two-factor-secret">{setup.data.secret}</code>
              </Typography.Paragraph>
            </>
          ) : (
            <Spin />
          )}
        </div>
      )}
      {error && (
        <Alert
          type="error"
          showIcon
          message={error}
          className="login-page__error"
          data-testid="two-factor-error"
        />
      )}
      <Form.Item
        name="code"
        rules={[
          {
            required: true,
            whitespace: true,
            message: enrol ? t('codeRequired') : t('loginCodeRequired'),
          },
        ]}
      >
        <Input
          prefix={<SafetyOutlined />}
          placeholder={enrol ? t('code') : t('loginCode')}
          autoComplete="one-time-code"
          autoFocus
          maxLength={11}
          data-testid="two-factor-code"
        />
      </Form.Item>
      <Button
        type="primary"
        htmlType="submit"
        block
        loading={verify.isPending}
        data-testid="two-factor-submit"
      >
        {enrol ? t('confirm') : t('verify')}
      </Button>
      <Button type="link" block onClick={onCancel} data-testid="two-factor-back">
        {t('back')}
      </Button>
    </Form>
  );
}
