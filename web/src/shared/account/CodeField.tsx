import { SafetyOutlined } from '@ant-design/icons';
import { Form, Input } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { SendCodeButton } from './SendCodeButton';
import { VERIFY_CODE_PATTERN } from '@blrms/contracts/constants';

/**
 * A six-digit verification code input with the button that sends the code beside it. The row's
 * layout (`className`) belongs to the page: the login and account pages size the button apart.
 */
export function CodeField({
  name,
  placeholder,
  required,
  send,
  className,
  testId,
  sendTestId,
}: {
  name: string;
  placeholder: string;
  /** The page's own "required" rule, with its message. */
  required: Rule;
  send: () => Promise<void>;
  className: string;
  testId: string;
  sendTestId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className={className}>
      <Form.Item
        name={name}
        rules={[required, { pattern: VERIFY_CODE_PATTERN, message: t('account.codeRule') }]}
      >
        <Input
          prefix={<SafetyOutlined />}
          placeholder={placeholder}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
          data-testid={testId}
        />
      </Form.Item>
      <SendCodeButton send={send} testId={sendTestId} />
    </div>
  );
}
