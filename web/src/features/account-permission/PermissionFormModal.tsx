import {
  ModalForm,
  ProFormDigit,
  ProFormRadio,
  ProFormSwitch,
  ProFormText,
  ProFormTreeSelect,
} from '@ant-design/pro-components';
import { ZPermissionAdd, type TPermissionAdd, type TPermissionNode } from '@blrms/contracts';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRules } from '../../shared/entity/zod-rules';

type Values = Partial<Omit<TPermissionAdd, 'parentId' | 'name' | 'menuType'>> &
  Pick<TPermissionAdd, 'name' | 'menuType'> & { parentId?: string | null };

type Props = {
  open: boolean;
  editing: TPermissionNode | null;
  /** Parent preset when adding below a row. */
  parentId: string | null;
  tree: TPermissionNode[];
  onClose: () => void;
  onSubmit: (values: TPermissionAdd) => Promise<unknown>;
};

type ParentOption = { value: string; title: string; children: ParentOption[] };

/** Menus and pages can be parents; buttons cannot, nor the row itself or anything below it. */
function parentOptions(
  nodes: TPermissionNode[],
  excluded: string | undefined,
  en: boolean,
): ParentOption[] {
  return nodes
    .filter((n) => n.menuType !== 2 && n.id !== excluded)
    .map((n) => ({
      value: n.id,
      title: (en && n.nameEn) || n.name,
      children: parentOptions(n.children ?? [], excluded, en),
    }));
}

export function PermissionFormModal({ open, editing, parentId, tree, onClose, onSubmit }: Props) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<Values>();
  const menuType = Form.useWatch('menuType', form) ?? editing?.menuType ?? 1;
  const isButton = menuType === 2;

  return (
    <ModalForm<Values>
      key={editing?.id ?? `new-${parentId ?? 'top'}`}
      form={form}
      title={editing ? t('permissionAdmin.edit') : t('permissionAdmin.add')}
      open={open}
      width={640}
      grid
      rowProps={{ gutter: 16 }}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      initialValues={
        editing
          ? { ...editing, parentId: editing.parentId }
          : {
              parentId,
              menuType: parentId ? 1 : 0,
              permsType: '1',
              status: '1',
              sortNo: 0,
              route: true,
              hidden: false,
              keepAlive: false,
              alwaysShow: false,
              internalOrExternal: false,
            }
      }
      onFinish={async (values) => {
        const text = (v: string | null | undefined) => v?.trim() || null;
        await onSubmit({
          parentId: values.parentId ?? null,
          name: values.name.trim(),
          nameEn: text(values.nameEn),
          menuType: values.menuType,
          url: isButton ? null : text(values.url),
          component: isButton ? null : text(values.component),
          componentName: isButton ? null : text(values.componentName),
          redirect: isButton ? null : text(values.redirect),
          perms: text(values.perms),
          permsType: values.permsType ?? '1',
          status: values.status ?? '1',
          sortNo: values.sortNo ?? 0,
          icon: isButton ? null : text(values.icon),
          hidden: values.hidden ?? false,
          keepAlive: values.keepAlive ?? false,
          alwaysShow: values.alwaysShow ?? false,
          route: values.route ?? true,
          internalOrExternal: values.internalOrExternal ?? false,
        });
        onClose();
        return true;
      }}
      data-testid="permission-form"
    >
      <ProFormRadio.Group
        name="menuType"
        label={t('permissionAdmin.menuType')}
        colProps={{ span: 24 }}
        radioType="button"
        options={[
          { value: 0, label: t('permissionAdmin.type0') },
          { value: 1, label: t('permissionAdmin.type1') },
          { value: 2, label: t('permissionAdmin.type2') },
        ]}
      />
      <ProFormText
        name="name"
        label={t('permissionAdmin.name')}
        colProps={{ xs: 24, sm: 12 }}
        rules={zodRules(ZPermissionAdd, 'name', { required: t('permissionAdmin.nameRequired') })}
        fieldProps={{ id: 'permission-name' }}
      />
      <ProFormText
        name="nameEn"
        label={t('permissionAdmin.nameEn')}
        colProps={{ xs: 24, sm: 12 }}
        rules={zodRules(ZPermissionAdd, 'nameEn')}
        fieldProps={{ id: 'permission-name-en' }}
      />
      <ProFormTreeSelect
        name="parentId"
        label={t('permissionAdmin.parent')}
        colProps={{ span: 24 }}
        rules={isButton ? [{ required: true, message: t('permissionAdmin.parentRequired') }] : []}
        fieldProps={{
          allowClear: true,
          treeDefaultExpandAll: true,
          treeData: parentOptions(tree, editing?.id, i18n.language === 'en-US'),
          placeholder: t('permissionAdmin.topLevel'),
        }}
      />
      {!isButton && (
        <>
          <ProFormText
            name="url"
            label={t('permissionAdmin.url')}
            colProps={{ xs: 24, sm: 12 }}
            rules={[
              // A menu needs its route; the contract leaves it optional because buttons have none.
              { required: true, message: t('permissionAdmin.urlRequired') },
              ...zodRules(ZPermissionAdd, 'url'),
            ]}
            fieldProps={{ id: 'permission-url', placeholder: '/account/user' }}
          />
          <ProFormText
            name="component"
            label={t('permissionAdmin.component')}
            colProps={{ xs: 24, sm: 12 }}
            rules={zodRules(ZPermissionAdd, 'component')}
            fieldProps={{ id: 'permission-component', placeholder: 'account/UserList' }}
          />
          <ProFormText
            name="componentName"
            label={t('permissionAdmin.componentName')}
            colProps={{ xs: 24, sm: 12 }}
            rules={zodRules(ZPermissionAdd, 'componentName', {
              pattern: t('permissionAdmin.componentNameRule'),
            })}
            fieldProps={{ id: 'permission-component-name' }}
          />
          <ProFormText
            name="redirect"
            label={t('permissionAdmin.redirect')}
            colProps={{ xs: 24, sm: 12 }}
            rules={zodRules(ZPermissionAdd, 'redirect')}
          />
          <ProFormText
            name="icon"
            label={t('permissionAdmin.icon')}
            colProps={{ xs: 24, sm: 12 }}
            rules={zodRules(ZPermissionAdd, 'icon')}
            fieldProps={{ placeholder: 'setting' }}
          />
        </>
      )}
      <ProFormText
        name="perms"
        label={t('permissionAdmin.perms')}
        colProps={{ xs: 24, sm: 12 }}
        rules={[
          isButton
            ? { required: true, message: t('permissionAdmin.permsRequired') }
            : { required: false },
          {
            pattern:
              /^[A-Za-z][A-Za-z0-9_-]*(:[A-Za-z0-9_-]+)*(,[A-Za-z][A-Za-z0-9_-]*(:[A-Za-z0-9_-]+)*)*$/,
            message: t('permissionAdmin.permsRule'),
          },
        ]}
        fieldProps={{ id: 'permission-perms', placeholder: 'account:user:add' }}
      />
      <ProFormDigit
        name="sortNo"
        label={t('permissionAdmin.sortNo')}
        colProps={{ xs: 24, sm: 12 }}
        min={0}
        max={100000}
        fieldProps={{ precision: 0 }}
      />
      {isButton && (
        <>
          <ProFormRadio.Group
            name="permsType"
            label={t('permissionAdmin.permsType')}
            colProps={{ xs: 24, sm: 12 }}
            options={[
              { value: '1', label: t('permissionAdmin.permsType1') },
              { value: '2', label: t('permissionAdmin.permsType2') },
            ]}
          />
          <ProFormRadio.Group
            name="status"
            label={t('permissionAdmin.status')}
            colProps={{ xs: 24, sm: 12 }}
            options={[
              { value: '1', label: t('permissionAdmin.status1') },
              { value: '0', label: t('permissionAdmin.status0') },
            ]}
          />
        </>
      )}
      {!isButton && (
        <>
          <ProFormSwitch
            name="route"
            label={t('permissionAdmin.route')}
            colProps={{ xs: 12, sm: 8 }}
          />
          <ProFormSwitch
            name="hidden"
            label={t('permissionAdmin.hidden')}
            colProps={{ xs: 12, sm: 8 }}
          />
          <ProFormSwitch
            name="keepAlive"
            label={t('permissionAdmin.keepAlive')}
            colProps={{ xs: 12, sm: 8 }}
          />
          <ProFormSwitch
            name="alwaysShow"
            label={t('permissionAdmin.alwaysShow')}
            colProps={{ xs: 12, sm: 8 }}
          />
          <ProFormSwitch
            name="internalOrExternal"
            label={t('permissionAdmin.internalOrExternal')}
            colProps={{ xs: 12, sm: 8 }}
          />
        </>
      )}
    </ModalForm>
  );
}
