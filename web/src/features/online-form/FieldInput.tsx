import { PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import { locationTree, type TLocationTreeItem, type TOnlineField } from '@blrms/contracts';
import { useQuery } from '@tanstack/react-query';
import {
  App,
  Button,
  DatePicker,
  Input,
  InputNumber,
  Select,
  Space,
  Switch,
  TreeSelect,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDictOptions } from '../../shared/use-dict-items';
import { acceptsFile } from './form-fields';
import { pickerApi, useLocationTree } from './use-online-forms';

/** What antd's Form.Item hands its single child. */
type Controlled<V> = { value?: V; onChange?: (value: V | null) => void; id?: string };

/** A select of a dictionary's enabled items, labelled in the reader's language. */
export function DictSelect({
  dictCode,
  ...props
}: Controlled<string> & { dictCode: string; placeholder?: string; testId?: string }) {
  const options = useDictOptions(dictCode, null);
  return (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      options={options.map((o) => ({ value: o.value, label: o.label }))}
      value={props.value ?? undefined}
      onChange={(v: string | undefined) => props.onChange?.(v ?? null)}
      placeholder={props.placeholder}
      id={props.id}
      data-testid={props.testId}
    />
  );
}

/**
 * A device found by SN: the list answers as the user types. The record's current device is shown
 * by the text the server gave for it (`shown`), so the picker needs no look-up to open.
 */
export function DevicePicker({
  shown,
  testId,
  ...props
}: Controlled<string> & { shown?: string; testId?: string }) {
  const { t } = useTranslation();
  const [sn, setSn] = useState('');
  const devices = useQuery({
    queryKey: ['onlineDevicePicker', sn],
    queryFn: () => pickerApi.devices(sn),
    staleTime: 30_000,
  });
  const options = (devices.data?.records ?? []).map((d) => ({
    value: d.id,
    label: d.name && d.name !== d.sn ? `${d.sn} / ${d.name}` : d.sn,
  }));
  if (props.value && shown && !options.some((o) => o.value === props.value)) {
    options.unshift({ value: props.value, label: shown });
  }
  return (
    <Select
      allowClear
      showSearch
      filterOption={false}
      onSearch={setSn}
      loading={devices.isFetching}
      options={options}
      value={props.value ?? undefined}
      onChange={(v: string | undefined) => props.onChange?.(v ?? null)}
      placeholder={t('onlineForm.record.deviceSearch')}
      notFoundContent={devices.isError ? t('onlineForm.record.devicesUnavailable') : undefined}
      id={props.id}
      data-testid={testId}
    />
  );
}

type TreeOption = { value: string; title: string; children?: TreeOption[] };

function treeOf(items: readonly TLocationTreeItem<TreeOption>[]): TreeOption[] {
  return items.map((item) => ({
    ...item.value,
    ...(item.children.length > 0 ? { children: treeOf(item.children) } : {}),
  }));
}

/**
 * A location of the base data's tree. When the tree cannot be read (no base data, or no right to
 * it) the select says so and keeps the current value, shown by its name.
 */
export function LocationSelect({
  shown,
  testId,
  ...props
}: Controlled<string> & { shown?: string; testId?: string }) {
  const { t } = useTranslation();
  const tree = useLocationTree();
  const unavailable = tree.isError;
  const treeData = tree.data
    ? treeOf(locationTree(tree.data.nodes, (node) => ({ value: node.id, title: node.name })))
    : [];
  if (props.value && shown && treeData.length === 0) {
    treeData.push({ value: props.value, title: shown });
  }
  return (
    <TreeSelect
      allowClear
      showSearch
      treeNodeFilterProp="title"
      treeDefaultExpandAll
      treeData={treeData}
      loading={tree.isFetching}
      disabled={unavailable && !props.value}
      value={props.value ?? undefined}
      onChange={(v: string | undefined) => props.onChange?.(v ?? null)}
      placeholder={
        unavailable ? t('onlineForm.record.locationsUnavailable') : t('onlineForm.record.choose')
      }
      id={props.id}
      data-testid={testId}
    />
  );
}

/** Opens a file of the file library through a short-lived signed link. */
export function FileLink({ id, name }: { id: string; name: string }) {
  return (
    <Typography.Link
      onClick={() => {
        void pickerApi.fileLink(id).then((link) => window.open(link.url, '_blank', 'noopener'));
      }}
    >
      <PaperClipOutlined /> {name}
    </Typography.Link>
  );
}

/**
 * A file stored in the file library: choosing one uploads it there, and the field keeps its id.
 * The field's accepted extensions and size are checked before anything is sent.
 */
export function FileInput({
  field,
  shown,
  testId,
  ...props
}: Controlled<string> & {
  field: Extract<TOnlineField, { type: 'file' }>;
  shown?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [name, setName] = useState(shown);
  const [sent, setSent] = useState<number | null>(null);
  const choose = (file: File) => {
    if (!acceptsFile(field.accept, file.name)) {
      void message.error(t('onlineForm.record.fileType', { accept: field.accept?.join(' ') }));
      return;
    }
    if (field.maxSize && file.size > field.maxSize) {
      void message.error(
        t('onlineForm.record.fileSize', { mb: Math.round((field.maxSize / 1048576) * 10) / 10 }),
      );
      return;
    }
    setSent(0);
    pickerApi
      .uploadFile(file, setSent)
      .then((stored) => {
        setName(stored.name);
        props.onChange?.(stored.id);
      })
      .catch(() => undefined)
      .finally(() => setSent(null));
  };
  return (
    <Space wrap id={props.id}>
      <Button
        icon={<UploadOutlined />}
        loading={sent !== null}
        onClick={() => {
          const input = document.createElement('input');
          input.type = 'file';
          if (field.accept && field.accept.length > 0) input.accept = field.accept.join(',');
          input.onchange = () => {
            const file = input.files?.[0];
            if (file) choose(file);
          };
          input.click();
        }}
        data-testid={testId}
      >
        {sent !== null
          ? t('onlineForm.record.uploading', { percent: Math.round(sent * 100) })
          : t('onlineForm.record.chooseFile')}
      </Button>
      {props.value && (
        <>
          <FileLink id={props.value} name={name ?? props.value} />
          <Button size="small" type="link" danger onClick={() => props.onChange?.(null)}>
            {t('onlineForm.record.removeFile')}
          </Button>
        </>
      )}
    </Space>
  );
}

/**
 * The input of one field, as the record modal and the designer's preview show it. `shown` is the
 * server's text for the current value (device SN, location or file name).
 */
export function FieldInput({
  field,
  shown,
  testId,
  ...props
}: Controlled<unknown> & { field: TOnlineField; shown?: string; testId?: string }) {
  const { t } = useTranslation();
  const common = { id: props.id, 'data-testid': testId };
  const onChange = (v: unknown) => props.onChange?.(v ?? null);
  switch (field.type) {
    case 'text':
      return (
        <Input
          {...common}
          value={(props.value as string | undefined) ?? ''}
          onChange={(e) => onChange(e.target.value)}
          maxLength={field.maxLength ?? undefined}
        />
      );
    case 'textarea':
      return (
        <Input.TextArea
          {...common}
          rows={3}
          value={(props.value as string | undefined) ?? ''}
          onChange={(e) => onChange(e.target.value)}
          maxLength={field.maxLength ?? undefined}
          showCount={field.maxLength != null}
        />
      );
    case 'number':
      return (
        <InputNumber
          {...common}
          style={{ width: '100%' }}
          value={props.value as number | null | undefined}
          onChange={onChange}
          placeholder={rangeHint(field.min, field.max)}
        />
      );
    case 'date':
      return (
        <DatePicker
          {...common}
          style={{ width: '100%' }}
          value={props.value as never}
          onChange={onChange}
        />
      );
    case 'datetime':
      return (
        <DatePicker
          {...common}
          showTime
          style={{ width: '100%' }}
          value={props.value as never}
          onChange={onChange}
        />
      );
    case 'switch':
      return (
        <Switch
          {...common}
          checked={props.value === true}
          onChange={onChange}
          checkedChildren={t('onlineForm.yes')}
          unCheckedChildren={t('onlineForm.no')}
        />
      );
    case 'select':
      return (
        <DictSelect
          dictCode={field.dictCode}
          value={props.value as string | undefined}
          onChange={onChange}
          id={props.id}
          testId={testId}
          placeholder={t('onlineForm.record.choose')}
        />
      );
    case 'device':
      return (
        <DevicePicker
          shown={shown}
          value={props.value as string | undefined}
          onChange={onChange}
          id={props.id}
          testId={testId}
        />
      );
    case 'location':
      return (
        <LocationSelect
          shown={shown}
          value={props.value as string | undefined}
          onChange={onChange}
          id={props.id}
          testId={testId}
        />
      );
    case 'file':
      return (
        <FileInput
          field={field}
          shown={shown}
          value={props.value as string | undefined}
          onChange={onChange}
          id={props.id}
          testId={testId}
        />
      );
  }
}

/** "10 – 99" under an empty number input, so the range is known before typing. */
function rangeHint(min: number | null | undefined, max: number | null | undefined) {
  if (min == null && max == null) return undefined;
  return `${min ?? ''} – ${max ?? ''}`;
}
