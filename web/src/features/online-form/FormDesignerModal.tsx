import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import {
  ONLINE_FIELD_TYPES,
  ONLINE_FORM_FIELDS_MAX,
  ONLINE_FORM_PATTERN_MAX,
  ONLINE_FORM_PRECISION_MAX,
  ONLINE_FORM_TEXT_MAX,
  ZOnlineFieldKey,
  ZOnlineFormCode,
  type TOnlineField,
  type TOnlineForm,
  type TOnlineFormInput,
} from '@blrms/contracts';
import type { ButtonProps } from 'antd';
import {
  Button,
  Card,
  Checkbox,
  Col,
  DatePicker,
  Dropdown,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Row,
  Select,
  Space,
  Switch,
  Tooltip,
  Typography,
  type FormInstance,
} from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { showFieldErrors, type FieldName } from '../../shared/field-errors';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { DictSelect } from './FieldInput';
import {
  designerFieldOf,
  fieldLabel,
  fieldInputOf,
  flagsOf,
  newField,
  previewFields,
  type DesignerField,
} from './form-fields';
import { RecordFields } from './RecordFields';
import { FORMS_KEY, MENU_KEY, RECORDS_KEY, formApi, useDictChoices } from './use-online-forms';

type Values = {
  name: string;
  nameEn?: string | null;
  code: string;
  description?: string | null;
  fields: DesignerField[];
};

const FLAGS = ['required', 'unique', 'searchable', 'listed', 'sortable'] as const;

/** Server paths that name a designer input by another name. */
const RENAMED: Record<string, string> = { maxSize: 'maxSizeMb' };

/** A server error's path (`fields.2.key`) as the designer's field name (`['fields', 2, 'key']`). */
function designerFieldName(path: string[]): FieldName | null {
  if (path.length === 0) return null;
  return path.map((part) => (/^\d+$/.test(part) ? Number(part) : (RENAMED[part] ?? part)));
}

/** The dictionaries a select field may take its options from. */
function DictCodeSelect({
  testId,
  ...props
}: {
  value?: string;
  onChange?: (v: string) => void;
  id?: string;
  testId?: string;
}) {
  const { i18n, t } = useTranslation();
  const dicts = useDictChoices(true);
  const en = i18n.language === 'en-US';
  return (
    <Select
      showSearch
      optionFilterProp="label"
      loading={dicts.isFetching}
      placeholder={t('onlineForm.designer.dictCode')}
      options={(dicts.data?.records ?? []).map((d) => ({
        value: d.dictCode,
        label: `${en && d.dictNameEn ? d.dictNameEn : d.dictName} (${d.dictCode})`,
      }))}
      {...props}
      data-testid={testId}
    />
  );
}

/** The default value's input, by the field's type (none for references and files). */
function DefaultInput({ field, name }: { field: DesignerField; name: number }) {
  const { t } = useTranslation();
  const label = t('onlineForm.designer.defaultValue');
  const item = (input: ReactNode, valuePropName?: string) => (
    <Form.Item name={[name, 'defaultValue']} label={label} valuePropName={valuePropName}>
      {input}
    </Form.Item>
  );
  switch (field.type) {
    case 'text':
      return item(<Input />);
    case 'textarea':
      return item(<Input.TextArea rows={2} />);
    case 'number':
      return item(<InputNumber style={{ width: '100%' }} />);
    case 'date':
      return item(<DatePicker style={{ width: '100%' }} />);
    case 'datetime':
      return item(<DatePicker showTime style={{ width: '100%' }} />);
    case 'switch':
      return item(<Switch />, 'checked');
    case 'select':
      return field.dictCode ? item(<DictSelect dictCode={field.dictCode} />) : null;
    default:
      return null;
  }
}

/** The settings of one field: what every field has, then what its type adds. */
function FieldSettings({
  form,
  name,
  index,
  count,
  move,
  remove,
}: {
  form: FormInstance<Values>;
  name: number;
  index: number;
  count: number;
  move: (from: number, to: number) => void;
  remove: (index: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const field = Form.useWatch(['fields', name], form) as DesignerField | undefined;
  const type = field?.type ?? 'text';
  const flags = flagsOf(type);
  const allowed: Record<(typeof FLAGS)[number], boolean> = {
    required: true,
    listed: true,
    unique: flags.unique,
    searchable: flags.searchable,
    sortable: flags.sortable,
  };
  const textual = type === 'text' || type === 'textarea';
  return (
    <Card
      size="small"
      className="online-designer__field"
      title={
        <Space>
          <Typography.Text type="secondary">#{index + 1}</Typography.Text>
          <span>
            {(field &&
              fieldLabel({ label: field.label, labelEn: field.labelEn ?? null }, i18n.language)) ||
              field?.key}
          </span>
          <Typography.Text type="secondary">{t(`onlineForm.type.${type}`)}</Typography.Text>
        </Space>
      }
      extra={
        <Space size={0}>
          <Tooltip title={t('onlineForm.designer.moveUp')}>
            <Button
              type="text"
              size="small"
              icon={<ArrowUpOutlined />}
              disabled={index === 0}
              onClick={() => move(index, index - 1)}
              aria-label={t('onlineForm.designer.moveUp')}
              data-testid={`designer-up-${index}`}
            />
          </Tooltip>
          <Tooltip title={t('onlineForm.designer.moveDown')}>
            <Button
              type="text"
              size="small"
              icon={<ArrowDownOutlined />}
              disabled={index === count - 1}
              onClick={() => move(index, index + 1)}
              aria-label={t('onlineForm.designer.moveDown')}
              data-testid={`designer-down-${index}`}
            />
          </Tooltip>
          <Tooltip title={t('onlineForm.designer.removeField')}>
            <Button
              type="text"
              size="small"
              danger
              icon={<DeleteOutlined />}
              onClick={() => remove(index)}
              aria-label={t('onlineForm.designer.removeField')}
              data-testid={`designer-remove-${index}`}
            />
          </Tooltip>
        </Space>
      }
      data-testid={`designer-field-${index}`}
    >
      <Row gutter={12}>
        <Col xs={24} sm={12}>
          <Form.Item
            name={[name, 'label']}
            label={t('onlineForm.designer.label')}
            rules={[
              {
                required: true,
                whitespace: true,
                message: t('form.required', { field: t('onlineForm.designer.label') }),
              },
              { max: 64 },
            ]}
          >
            <Input data-testid={`designer-label-${index}`} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name={[name, 'labelEn']}
            label={t('onlineForm.designer.labelEn')}
            rules={[{ max: 64 }]}
          >
            <Input data-testid={`designer-label-en-${index}`} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name={[name, 'key']}
            label={t('onlineForm.designer.key')}
            tooltip={t('onlineForm.designer.keyHelp')}
            rules={[
              {
                validator: (_, value: string | undefined) =>
                  ZOnlineFieldKey.safeParse(value ?? '').success
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('onlineForm.designer.keyRule'))),
              },
            ]}
          >
            <Input data-testid={`designer-key-${index}`} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name={[name, 'type']} label={t('onlineForm.designer.type')}>
            <Select
              options={ONLINE_FIELD_TYPES.map((value) => ({
                value,
                label: t(`onlineForm.type.${value}`),
              }))}
              data-testid={`designer-type-${index}`}
            />
          </Form.Item>
        </Col>
      </Row>
      <Space wrap size={[16, 0]} style={{ marginBottom: 12 }}>
        {FLAGS.map((flag) => (
          <Form.Item key={flag} name={[name, flag]} valuePropName="checked" noStyle>
            <Checkbox disabled={!allowed[flag]} data-testid={`designer-${flag}-${index}`}>
              {t(`onlineForm.designer.${flag}`)}
            </Checkbox>
          </Form.Item>
        ))}
      </Space>
      <Row gutter={12}>
        {textual && (
          <>
            <Col xs={12} sm={6}>
              <Form.Item name={[name, 'minLength']} label={t('onlineForm.designer.minLength')}>
                <InputNumber
                  min={0}
                  max={ONLINE_FORM_TEXT_MAX}
                  precision={0}
                  style={{ width: '100%' }}
                />
              </Form.Item>
            </Col>
            <Col xs={12} sm={6}>
              <Form.Item name={[name, 'maxLength']} label={t('onlineForm.designer.maxLength')}>
                <InputNumber
                  min={1}
                  max={ONLINE_FORM_TEXT_MAX}
                  precision={0}
                  style={{ width: '100%' }}
                />
              </Form.Item>
            </Col>
          </>
        )}
        {type === 'text' && (
          <>
            <Col xs={24} sm={12}>
              <Form.Item
                name={[name, 'pattern']}
                label={t('onlineForm.designer.pattern')}
                tooltip={t('onlineForm.designer.patternHelp')}
                rules={[{ max: ONLINE_FORM_PATTERN_MAX }]}
              >
                <Input placeholder="^[A-Z0-9]+$" />
              </Form.Item>
            </Col>
            <Col xs={24}>
              <Form.Item
                name={[name, 'patternHint']}
                label={t('onlineForm.designer.patternHint')}
                rules={[{ max: 100 }]}
              >
                <Input />
              </Form.Item>
            </Col>
          </>
        )}
        {type === 'number' && (
          <>
            <Col xs={8}>
              <Form.Item name={[name, 'min']} label={t('onlineForm.designer.min')}>
                <InputNumber style={{ width: '100%' }} data-testid={`designer-min-${index}`} />
              </Form.Item>
            </Col>
            <Col xs={8}>
              <Form.Item name={[name, 'max']} label={t('onlineForm.designer.max')}>
                <InputNumber style={{ width: '100%' }} data-testid={`designer-max-${index}`} />
              </Form.Item>
            </Col>
            <Col xs={8}>
              <Form.Item name={[name, 'precision']} label={t('onlineForm.designer.precision')}>
                <InputNumber
                  min={0}
                  max={ONLINE_FORM_PRECISION_MAX}
                  precision={0}
                  style={{ width: '100%' }}
                />
              </Form.Item>
            </Col>
          </>
        )}
        {type === 'select' && (
          <Col xs={24} sm={12}>
            <Form.Item
              name={[name, 'dictCode']}
              label={t('onlineForm.designer.dictCode')}
              rules={[
                {
                  required: true,
                  message: t('form.required', { field: t('onlineForm.designer.dictCode') }),
                },
              ]}
            >
              <DictCodeSelect testId={`designer-dict-${index}`} />
            </Form.Item>
          </Col>
        )}
        {type === 'file' && (
          <>
            <Col xs={24} sm={16}>
              <Form.Item
                name={[name, 'accept']}
                label={t('onlineForm.designer.accept')}
                tooltip={t('onlineForm.designer.acceptHelp')}
              >
                <Select mode="tags" tokenSeparators={[',', ' ']} placeholder=".pdf .jpg" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={8}>
              <Form.Item name={[name, 'maxSizeMb']} label={t('onlineForm.designer.maxSizeMb')}>
                <InputNumber min={0.01} max={100} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </>
        )}
        {field && (
          <Col xs={24} sm={12}>
            <DefaultInput field={field} name={name} />
          </Col>
        )}
      </Row>
    </Card>
  );
}

/** The form as users will see it, redrawn as the definition changes. */
function Preview({ fields }: { fields: TOnlineField[] }) {
  const { t } = useTranslation();
  const [preview] = Form.useForm();
  return (
    <Card
      size="small"
      title={t('onlineForm.designer.preview')}
      className="online-designer__preview"
      data-testid="designer-preview"
    >
      {fields.length === 0 ? (
        <Empty description={t('onlineForm.designer.previewEmpty')} />
      ) : (
        <Form form={preview} layout="vertical" key={JSON.stringify(fields)}>
          <RecordFields fields={fields} />
        </Form>
      )}
    </Card>
  );
}

/**
 * The form designer: name, code and description, then the ordered fields (add, remove, move;
 * each with its type's settings), beside a live preview of the form users will fill in.
 */
export function FormDesignerModal({
  form: stored,
  onClose,
}: {
  form: TOnlineForm | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const narrow = useNarrowScreen();
  const [form] = Form.useForm<Values>();
  const watched = Form.useWatch('fields', form) as (DesignerField | undefined)[] | undefined;
  const save = useEntityMutation({
    mutationFn: (values: TOnlineFormInput) =>
      stored ? formApi.edit({ ...values, id: stored.id }) : formApi.add(values),
    invalidates: [[FORMS_KEY], [RECORDS_KEY], [MENU_KEY]],
    successMessage: serverMessage,
  });
  const published = stored?.status === 'published';

  const submit = (values: Values) =>
    save.mutate(
      {
        code: values.code.trim(),
        name: values.name.trim(),
        nameEn: values.nameEn?.trim() || null,
        description: values.description?.trim() || null,
        fields: (values.fields ?? []).map(fieldInputOf),
      },
      {
        onSuccess: onClose,
        onError: (error) => showFieldErrors(form, error, designerFieldName),
      },
    );

  return (
    <Modal
      open
      width={narrow ? '100%' : 1180}
      style={narrow ? { top: 0, maxWidth: '100vw', padding: 0 } : { top: 24 }}
      title={stored ? t('onlineForm.edit') : t('onlineForm.add')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'designer-save' } as ButtonProps}
      data-testid="designer-modal"
    >
      <Row gutter={16}>
        <Col xs={24} lg={14}>
          <Form<Values>
            form={form}
            layout="vertical"
            initialValues={
              stored
                ? {
                    name: stored.name,
                    nameEn: stored.nameEn,
                    code: stored.code,
                    description: stored.description,
                    fields: stored.fields.map(designerFieldOf),
                  }
                : { fields: [] }
            }
            onFinish={submit}
            scrollToFirstError
          >
            <Row gutter={12}>
              <Col xs={24} sm={12}>
                <Form.Item
                  name="name"
                  label={t('onlineForm.name')}
                  rules={[
                    {
                      required: true,
                      whitespace: true,
                      message: t('form.required', { field: t('onlineForm.name') }),
                    },
                    { max: 64 },
                  ]}
                >
                  <Input data-testid="designer-name" />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12}>
                <Form.Item name="nameEn" label={t('onlineForm.nameEn')} rules={[{ max: 64 }]}>
                  <Input data-testid="designer-name-en" />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12}>
                <Form.Item
                  name="code"
                  label={t('onlineForm.code')}
                  tooltip={t('onlineForm.codeHelp')}
                  rules={[
                    {
                      validator: (_, value: string | undefined) =>
                        ZOnlineFormCode.safeParse(value ?? '').success
                          ? Promise.resolve()
                          : Promise.reject(new Error(t('onlineForm.codeRule'))),
                    },
                  ]}
                >
                  <Input disabled={published} data-testid="designer-code" autoComplete="off" />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12}>
                <Form.Item
                  name="description"
                  label={t('onlineForm.description')}
                  rules={[{ max: 255 }]}
                >
                  <Input />
                </Form.Item>
              </Col>
            </Row>
            <Form.List
              name="fields"
              rules={[
                {
                  validator: (_, fields: unknown[] | undefined) =>
                    fields && fields.length > 0
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('onlineForm.designer.noFields'))),
                },
              ]}
            >
              {(items, { add, remove, move }, { errors }) => (
                <Space direction="vertical" style={{ width: '100%' }}>
                  {items.map((item, index) => (
                    <FieldSettings
                      key={item.key}
                      form={form}
                      name={item.name}
                      index={index}
                      count={items.length}
                      move={move}
                      remove={remove}
                    />
                  ))}
                  <Form.ErrorList errors={errors} />
                  <Dropdown
                    trigger={['click']}
                    disabled={items.length >= ONLINE_FORM_FIELDS_MAX}
                    menu={{
                      items: ONLINE_FIELD_TYPES.map((type) => ({
                        key: type,
                        label: (
                          <span data-testid={`designer-add-${type}`}>
                            {t(`onlineForm.type.${type}`)}
                          </span>
                        ),
                      })),
                      onClick: ({ key }) => {
                        const type = ONLINE_FIELD_TYPES.find((candidate) => candidate === key);
                        const taken =
                          (form.getFieldValue('fields') as DesignerField[] | undefined) ?? [];
                        if (type)
                          add(
                            newField(
                              type,
                              taken.map((f) => f.key),
                            ),
                          );
                      },
                    }}
                  >
                    <Button
                      type="dashed"
                      block
                      icon={<PlusOutlined />}
                      data-testid="designer-add-field"
                    >
                      {t('onlineForm.designer.addField')}
                    </Button>
                  </Dropdown>
                </Space>
              )}
            </Form.List>
          </Form>
        </Col>
        <Col xs={24} lg={10}>
          <Preview fields={previewFields(watched ?? [])} />
        </Col>
      </Row>
    </Modal>
  );
}
