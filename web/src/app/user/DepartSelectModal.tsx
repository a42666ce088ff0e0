import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Modal, Select, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { replaceUserInfo } from '../../api/session';
import { sysApi } from '../../api/sys';
import { useCurrentUserDeparts, useDepartName } from '../../shared/use-current-user-departs';

type DepartForm = { orgCode: string };

/**
 * Spec sections 2 and 4: "choose" right after a login with several departments, "switch" from
 * the user menu. The dialog appears once the list has loaded; an empty list only warns.
 */
export function DepartSelectModal({
  mode,
  username,
  onClose,
}: {
  mode: 'choose' | 'switch';
  username: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const departName = useDepartName();
  const [form] = Form.useForm<DepartForm>();
  const departs = useCurrentUserDeparts();
  const list = departs.data?.list;
  const current = list?.find((d) => d.orgCode === departs.data?.orgCode);
  const isEmpty = list !== undefined && list.length === 0;

  useEffect(() => {
    if (!isEmpty) return;
    void message.warning(t('depart.empty'));
    onClose();
  }, [isEmpty, message, onClose, t]);

  useEffect(() => {
    if (departs.isError) onClose();
  }, [departs.isError, onClose]);

  const select = useMutation({
    mutationFn: ({ orgCode }: DepartForm) => sysApi.selectDepart({ orgCode, username }),
    onSuccess: async ({ userInfo }) => {
      replaceUserInfo(userInfo);
      void message.success(t('depart.switched'));
      onClose();
      // Department-scoped data (the dashboard, lists) is refetched for the new department.
      await queryClient.invalidateQueries();
    },
  });

  return (
    <Modal
      open={list !== undefined && list.length > 0}
      title={mode === 'choose' ? t('depart.titleChoose') : t('depart.titleSwitch')}
      width={450}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={select.isPending}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      maskClosable={false}
    >
      <div data-testid="depart-modal">
        {mode === 'switch' && (
          <Typography.Paragraph type="secondary" data-testid="depart-current">
            {t('depart.current', { name: current ? departName(current) : t('common.none') })}
          </Typography.Paragraph>
        )}
        <Form<DepartForm>
          form={form}
          layout="vertical"
          initialValues={{ orgCode: mode === 'switch' ? current?.orgCode : undefined }}
          onFinish={(values) => select.mutate(values)}
        >
          <Form.Item
            name="orgCode"
            label={t('depart.label')}
            rules={[{ required: true, message: t('depart.required') }]}
          >
            <Select
              placeholder={t('depart.placeholder')}
              options={(list ?? []).map((d) => ({ value: d.orgCode, label: departName(d) }))}
              data-testid="depart-select"
              // Inside the dialog, not at the end of the page: bringing the chosen option into view
              // then scrolls the list, never the dashboard behind the dialog.
              getPopupContainer={(trigger: HTMLElement) => trigger.parentElement ?? document.body}
            />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
