import type { TAnnouncement, TAnnouncementCreateInput, TAudienceDepart } from '@blrms/contracts';
import {
  ANNOUNCEMENT_CATEGORY,
  ANNOUNCEMENT_PRIORITIES,
  ZAnnouncementCategory,
  ZAnnouncementCreate,
} from '@blrms/contracts';
import { App, DatePicker, Form, Input, Modal, Radio, Select, Spin, TreeSelect } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { zodRules } from '../../shared/entity/zod-rules';
import { DATE_TIME_FORMAT } from '../../shared/format';
import { useDictOptions } from '../../shared/use-dict-items';
import { announcementAdminApi, useAudienceOptions } from './use-announcements';

const RichTextEditor = lazy(() => import('./RichTextEditor'));

/** Form.Item hands value and onChange to its direct child, so the lazy boundary sits inside. */
function LazyRichText(props: { value?: string; onChange?: (html: string) => void; id?: string }) {
  return (
    <Suspense fallback={<Spin />}>
      <RichTextEditor {...props} />
    </Suspense>
  );
}

type FormValues = {
  titile: string;
  msgContent: string;
  priority: 'L' | 'M' | 'H';
  msgCategory: '1' | '2';
  msgType: 'all' | 'user' | 'depart' | 'role';
  userIds?: string[];
  departIds?: string[];
  roleIds?: string[];
  openType: 'none' | 'url' | 'component';
  openPage?: string;
  busId?: string;
  period?: [Dayjs | null, Dayjs | null] | null;
};

type Props = {
  /** `null` closed; `'new'` a new draft; else the draft to edit. */
  editing: TAnnouncement | 'new' | null;
  onClose: () => void;
  onSaved: () => void;
};

function initialValues(editing: TAnnouncement | 'new'): FormValues {
  if (editing === 'new') {
    return {
      titile: '',
      msgContent: '',
      priority: 'L',
      msgCategory: ANNOUNCEMENT_CATEGORY.announcement,
      msgType: 'all',
      openType: 'none',
    };
  }
  return {
    titile: editing.titile,
    msgContent: editing.msgContent,
    priority: editing.priority,
    msgCategory: editing.msgCategory,
    msgType: editing.msgType,
    userIds: editing.userIds,
    departIds: editing.departIds,
    roleIds: editing.roleIds,
    openType: editing.openType ?? 'none',
    openPage: editing.openPage ?? undefined,
    busId: editing.busId ?? undefined,
    period: [
      editing.startTime ? dayjs(editing.startTime) : null,
      editing.endTime ? dayjs(editing.endTime) : null,
    ],
  };
}

type TreeNode = { value: string; title: string; children: TreeNode[] };

function toTree(departs: TAudienceDepart[]): TreeNode[] {
  return departs.map((d) => ({ value: d.id, title: d.title, children: toTree(d.children) }));
}

function toBody(v: FormValues): TAnnouncementCreateInput {
  return {
    titile: v.titile,
    msgContent: v.msgContent ?? '',
    priority: v.priority,
    msgCategory: v.msgCategory,
    msgType: v.msgType,
    userIds: v.msgType === 'user' ? (v.userIds ?? []) : [],
    departIds: v.msgType === 'depart' ? (v.departIds ?? []) : [],
    roleIds: v.msgType === 'role' ? (v.roleIds ?? []) : [],
    openType: v.openType === 'none' ? null : v.openType,
    openPage: v.openType === 'none' ? null : v.openPage?.trim() || null,
    busId: v.busId?.trim() || null,
    startTime: v.period?.[0]?.toISOString() ?? null,
    endTime: v.period?.[1]?.toISOString() ?? null,
  };
}

/** Create or edit a draft: title, rich text, priority, category, audience, open type, period. */
export function AnnouncementForm({ editing, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const audience = useAudienceOptions(editing !== null);
  const msgType = Form.useWatch('msgType', form);
  const openType = Form.useWatch('openType', form);
  // Labels and order from the dictionaries, as in the list; the values stay the contract's.
  const priorities = useDictOptions(
    'priority',
    ANNOUNCEMENT_PRIORITIES,
    ANNOUNCEMENT_PRIORITIES.map((p) => ({ value: p, label: t(`notice.priority.${p}`) })),
  );
  const categories = useDictOptions(
    'msg_category',
    ZAnnouncementCategory.options,
    ZAnnouncementCategory.options.map((c) => ({
      value: c,
      label: t(`announcement.categories.${c}`),
    })),
  );

  const save = async () => {
    // A refused validation is shown on the fields; it is no error of the page.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    try {
      const body = toBody(values);
      if (editing === 'new') await announcementAdminApi.add(body);
      else if (editing) await announcementAdminApi.edit({ ...body, id: editing.id });
      void message.success(t('announcement.saved'));
      onSaved();
      onClose();
    } catch {
      // The HTTP client showed the server's message, which names the field.
    } finally {
      setSaving(false);
    }
  };

  const required = (field: string) => ({
    required: true,
    message: t('announcement.required', { field }),
  });
  const chooseRequired = (field: string) => ({
    required: true,
    message: t('announcement.chooseRequired', { field }),
  });

  return (
    <Modal
      open={editing !== null}
      title={t(editing === 'new' ? 'announcement.addTitle' : 'announcement.editTitle')}
      width={800}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="announcement-form"
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={editing ? initialValues(editing) : undefined}
      >
        <Form.Item
          name="titile"
          label={t('announcement.title')}
          rules={zodRules(ZAnnouncementCreate, 'titile', {
            required: required(t('announcement.title')).message,
          })}
        >
          <Input maxLength={100} data-testid="announcement-title" />
        </Form.Item>
        <Form.Item name="msgContent" label={t('announcement.content')}>
          <LazyRichText />
        </Form.Item>
        <Form.Item
          name="priority"
          label={t('announcement.priority')}
          rules={zodRules(ZAnnouncementCreate, 'priority', {
            required: chooseRequired(t('announcement.priority')).message,
          })}
        >
          <Radio.Group
            data-testid="announcement-priority"
            options={priorities.map(({ value, label }) => ({ value, label }))}
          />
        </Form.Item>
        <Form.Item name="msgCategory" label={t('announcement.category')}>
          <Radio.Group options={categories.map(({ value, label }) => ({ value, label }))} />
        </Form.Item>
        <Form.Item name="msgType" label={t('announcement.audience')}>
          <Radio.Group
            data-testid="announcement-audience"
            options={(['all', 'user', 'depart', 'role'] as const).map((a) => ({
              value: a,
              label: t(`announcement.audiences.${a}`),
            }))}
          />
        </Form.Item>
        {msgType === 'user' && (
          <Form.Item
            name="userIds"
            label={t('announcement.users')}
            rules={[chooseRequired(t('announcement.users'))]}
          >
            <Select
              mode="multiple"
              optionFilterProp="label"
              loading={audience.isLoading}
              options={(audience.data?.users ?? []).map((u) => ({
                value: u.id,
                label: `${u.realname} (${u.username})`,
              }))}
              data-testid="announcement-users"
            />
          </Form.Item>
        )}
        {msgType === 'depart' && (
          <Form.Item
            name="departIds"
            label={t('announcement.departs')}
            rules={[chooseRequired(t('announcement.departs'))]}
          >
            <TreeSelect
              multiple
              treeDefaultExpandAll
              treeNodeFilterProp="title"
              loading={audience.isLoading}
              treeData={toTree(audience.data?.departs ?? [])}
              data-testid="announcement-departs"
            />
          </Form.Item>
        )}
        {msgType === 'role' && (
          <Form.Item
            name="roleIds"
            label={t('announcement.roles')}
            rules={[chooseRequired(t('announcement.roles'))]}
          >
            <Select
              mode="multiple"
              optionFilterProp="label"
              loading={audience.isLoading}
              options={(audience.data?.roles ?? []).map((r) => ({
                value: r.id,
                label: r.roleName,
              }))}
              data-testid="announcement-roles"
            />
          </Form.Item>
        )}
        <Form.Item name="openType" label={t('announcement.openType')}>
          <Radio.Group
            options={(['none', 'url', 'component'] as const).map((o) => ({
              value: o,
              label: t(`announcement.openTypes.${o}`),
            }))}
          />
        </Form.Item>
        {openType !== 'none' && openType !== undefined && (
          <>
            <Form.Item
              name="openPage"
              label={t('announcement.openPage')}
              rules={[
                // Required once the notice opens something; the contract lets it be absent otherwise.
                required(t('announcement.openPage')),
                ...zodRules(ZAnnouncementCreate, 'openPage'),
              ]}
            >
              <Input />
            </Form.Item>
            <Form.Item
              name="busId"
              label={t('announcement.busId')}
              rules={zodRules(ZAnnouncementCreate, 'busId')}
            >
              <Input />
            </Form.Item>
          </>
        )}
        <Form.Item name="period" label={t('announcement.period')}>
          <DatePicker.RangePicker
            showTime
            allowEmpty={[true, true]}
            format={DATE_TIME_FORMAT}
            placeholder={[t('announcement.startTime'), t('announcement.endTime')]}
            style={{ width: '100%' }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
