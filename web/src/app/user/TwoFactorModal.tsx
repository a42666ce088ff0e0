import type {
  TRecoveryCodes,
  TTwoFactorDisable,
  TTwoFactorPolicy,
  TTwoFactorSetup,
  TTwoFactorStatus,
} from '@blrms/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Image, Input, Modal, Spin, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TWO_FACTOR_NS } from '../i18n/two-factor';

import { ApiError, reportApiError } from '../../api/errors';
import { http } from '../../api/client';
import { useHasAction } from '../../shared/permission/use-has-action';

const twoFactorApi = {
  status: () => http.get<TTwoFactorStatus>('/sys/twoFactor/status'),
  setup: () => http.post<TTwoFactorSetup>('/sys/twoFactor/setup', {}),
  enable: (code: string) =>
    http.post<TRecoveryCodes>('/sys/twoFactor/enable', { code }, { silent: true }),
  disable: (body: TTwoFactorDisable) =>
    http.post<null>('/sys/twoFactor/disable', body, { silent: true }),
  policy: () => http.get<TTwoFactorPolicy>('/sys/twoFactor/policy'),
  setPolicy: (scope: 'company' | 'platform', required: boolean) =>
    http.put<TTwoFactorPolicy>(`/sys/twoFactor/policy/${scope}`, { required }),
};

/**
 * The user menu's two-factor dialog: turn it on (QR code and key, a first code, then the
 * recovery codes shown once) or off (a current code or the password), and, for administrators
 * holding the buttons, the company's or the platform's requirement.
 */
export default function TwoFactorModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation(TWO_FACTOR_NS);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<TTwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const canCompanyPolicy = useHasAction('account:user:twoFactorPolicy');
  const canPlatformPolicy = useHasAction('system:setting:twoFactor');
  const status = useQuery({ queryKey: ['twoFactorStatus'], queryFn: twoFactorApi.status });
  const policy = useQuery({
    queryKey: ['twoFactorPolicy'],
    queryFn: twoFactorApi.policy,
    enabled: canCompanyPolicy,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['twoFactorStatus'] });

  const failed = (e: unknown) => {
    if (e instanceof ApiError && e.status === 400) setError(e.message);
    else if (e instanceof ApiError) reportApiError(e);
  };
  const start = useMutation({ mutationFn: twoFactorApi.setup, onSuccess: setSetup });
  const enable = useMutation({
    mutationFn: (values: { code: string }) => twoFactorApi.enable(values.code.trim()),
    onSuccess: (result) => {
      setCodes(result.recoveryCodes);
      setSetup(null);
      void refresh();
    },
    onError: failed,
  });
  const disable = useMutation({
    mutationFn: (values: { code?: string; password?: string }) =>
      twoFactorApi.disable({
        ...(values.code?.trim() ? { code: values.code.trim() } : {}),
        ...(values.password ? { password: values.password } : {}),
      }),
    onSuccess: () => {
      void message.success(t('statusOff'));
      void refresh();
    },
    onError: failed,
  });
  const savePolicy = useMutation({
    mutationFn: ({ scope, required }: { scope: 'company' | 'platform'; required: boolean }) =>
      twoFactorApi.setPolicy(scope, required),
    onSuccess: (result) => {
      queryClient.setQueryData(['twoFactorPolicy'], result);
      void refresh();
    },
  });

  const body = () => {
    if (codes) {
      return (
        <div data-testid="two-factor-recovery">
          <Typography.Title level={5}>{t('recoveryTitle')}</Typography.Title>
          <Typography.Paragraph type="secondary">{t('recoveryIntro')}</Typography.Paragraph>
          <Typography.Paragraph copyable={{ text: codes.join('\n') }}>
            <pre data-testid="two-factor-recovery-codes">{codes.join('\n')}</pre>
          </Typography.Paragraph>
          <Button type="primary" onClick={() => setCodes(null)} data-testid="two-factor-done">
            {t('done')}
          </Button>
        </div>
      );
    }
    if (!status.data) return <Spin />;
    if (setup) {
      return (
        <Form
          layout="vertical"
          onFinish={(values: { code: string }) => {
            setError(null);
            enable.mutate(values);
          }}
        >
          <Typography.Paragraph>{t('scan')}</Typography.Paragraph>
          <Image src={setup.qrCode} width={180} preview={false} alt="QR" />
          <Typography.Paragraph copyable={{ text: setup.secret }}>
            {t('secret')}: <code data-testid="two-factor-secret">{setup.secret}</code>
          </Typography.Paragraph>
          <Form.Item
            name="code"
            label={t('code')}
            rules={[{ required: true, whitespace: true, message: t('codeRequired') }]}
          >
            <Input autoComplete="one-time-code" maxLength={6} data-testid="two-factor-code" />
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            loading={enable.isPending}
            data-testid="two-factor-confirm"
          >
            {t('confirm')}
          </Button>
        </Form>
      );
    }
    if (!status.data.enabled) {
      return (
        <>
          <Typography.Paragraph>{t('intro')}</Typography.Paragraph>
          <Button
            type="primary"
            loading={start.isPending}
            onClick={() => start.mutate()}
            data-testid="two-factor-start"
          >
            {t('start')}
          </Button>
        </>
      );
    }
    return (
      <>
        <Typography.Paragraph>
          {t('recoveryLeft', { count: status.data.recoveryCodesLeft })}
        </Typography.Paragraph>
        {status.data.required ? (
          <Alert type="info" showIcon message={t('required')} />
        ) : (
          <Form
            layout="vertical"
            onFinish={(values: { code?: string; password?: string }) => {
              setError(null);
              if (!values.code?.trim() && !values.password) setError(t('proofRequired'));
              else disable.mutate(values);
            }}
          >
            <Typography.Paragraph type="secondary">{t('disableIntro')}</Typography.Paragraph>
            <Form.Item name="code" label={t('disableCode')}>
              <Input autoComplete="one-time-code" data-testid="two-factor-disable-code" />
            </Form.Item>
            <Form.Item name="password" label={t('password')}>
              <Input.Password autoComplete="current-password" />
            </Form.Item>
            <Button
              danger
              htmlType="submit"
              loading={disable.isPending}
              data-testid="two-factor-disable"
            >
              {t('disable')}
            </Button>
          </Form>
        )}
      </>
    );
  };

  return (
    <Modal
      open
      title={
        <span>
          {t('title')}{' '}
          {status.data && (
            <Tag
              color={status.data.enabled ? 'success' : 'default'}
              data-testid="two-factor-status"
            >
              {status.data.enabled ? t('statusOn') : t('statusOff')}
            </Tag>
          )}
        </span>
      }
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      data-testid="two-factor-modal"
    >
      {error && (
        <Alert
          type="error"
          showIcon
          message={error}
          style={{ marginBottom: 12 }}
          data-testid="two-factor-error"
        />
      )}
      {body()}
      {canCompanyPolicy && policy.data && (
        <div style={{ marginTop: 24 }}>
          <Typography.Paragraph>
            <Switch
              checked={policy.data.companyRequired}
              loading={savePolicy.isPending}
              onChange={(required) => savePolicy.mutate({ scope: 'company', required })}
              data-testid="two-factor-policy-company"
            />{' '}
            {t('policyCompany')}
          </Typography.Paragraph>
          {canPlatformPolicy && (
            <Typography.Paragraph>
              <Switch
                checked={policy.data.platformRequired}
                loading={savePolicy.isPending}
                onChange={(required) => savePolicy.mutate({ scope: 'platform', required })}
                data-testid="two-factor-policy-platform"
              />{' '}
              {t('policyPlatform')}
            </Typography.Paragraph>
          )}
        </div>
      )}
    </Modal>
  );
}
