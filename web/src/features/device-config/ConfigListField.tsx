import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Form, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ConfigField } from './config-fields';
import { newListRow } from './config-fields';
import { grid, useFormContext } from './config-form-context';
import type { FormName } from './config-problems';
import { Leaf, UndoButton, useIsSet } from './ConfigLeaf';

/** A list of objects (Modbus slaves, input channels): rows to add and remove. */
export function ListField({
  field,
  name,
}: {
  field: Extract<ConfigField, { kind: 'list' }>;
  name: FormName;
}) {
  const { t } = useTranslation();
  const { mode } = useFormContext();
  const form = Form.useFormInstance();
  const isSet = useIsSet(name);
  return (
    <Form.List name={name}>
      {(rows, { add, remove }) => (
        <Flex vertical gap={8} data-testid={`config-list-${field.path}`}>
          {mode === 'patch' && (
            <Flex gap={4} align="center">
              <Typography.Text type="secondary">
                {t('deviceConfig.form.listReplaces')}
              </Typography.Text>
              {isSet && <UndoButton field={field} name={name} />}
            </Flex>
          )}
          {rows.length === 0 && (
            <Typography.Text type="secondary">{t('deviceConfig.form.listEmpty')}</Typography.Text>
          )}
          {rows.map((row, index) => (
            <Flex
              key={row.key}
              gap={8}
              align="flex-start"
              className="config-list-row"
              style={{
                border: '1px solid rgba(5, 5, 5, 0.06)',
                borderRadius: 6,
                padding: '8px 12px 0',
              }}
              data-testid={`config-row-${field.path}-${index}`}
            >
              <div style={{ ...grid(100), flex: 1, minWidth: 0 }}>
                {field.item.map((item) =>
                  item.kind === 'section' ? null : (
                    <div key={item.key}>
                      <Leaf
                        field={item}
                        name={[...name, row.name, item.key]}
                        itemName={[row.name, item.key]}
                      />
                    </div>
                  ),
                )}
              </div>
              <Tooltip title={t('deviceConfig.form.removeRow')}>
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('deviceConfig.form.removeRow')}
                  onClick={() => remove(row.name)}
                  style={{ marginTop: 30 }}
                  data-testid={`config-remove-${field.path}-${index}`}
                />
              </Tooltip>
            </Flex>
          ))}
          <Button
            type="dashed"
            icon={<PlusOutlined />}
            disabled={field.maxItems !== undefined && rows.length >= field.maxItems}
            onClick={() => {
              const current = form.getFieldValue(name) as unknown[] | undefined;
              add(newListRow(field.item, current ?? []));
            }}
            data-testid={`config-add-${field.path}`}
          >
            {field.maxItems !== undefined
              ? t('deviceConfig.form.addRowMax', { count: rows.length, max: field.maxItems })
              : t('deviceConfig.form.addRow')}
          </Button>
        </Flex>
      )}
    </Form.List>
  );
}
