import {
  AlertOutlined,
  ApartmentOutlined,
  ApiOutlined,
  AppstoreOutlined,
  BellOutlined,
  ClusterOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DeploymentUnitOutlined,
  EnvironmentOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  FormOutlined,
  HddOutlined,
  HomeOutlined,
  KeyOutlined,
  LockOutlined,
  MenuOutlined,
  MobileOutlined,
  NotificationOutlined,
  ProfileOutlined,
  SafetyOutlined,
  SettingOutlined,
  ShopOutlined,
  TableOutlined,
  TagsOutlined,
  TeamOutlined,
  ToolOutlined,
  UserOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

/**
 * Menu icon names the server may send (antd v3 style, as the framework's menus use). Only these
 * are bundled; importing every icon would add megabytes for names no menu uses.
 */
const ICONS: Record<string, ComponentType> = {
  alert: AlertOutlined,
  apartment: ApartmentOutlined,
  api: ApiOutlined,
  appstore: AppstoreOutlined,
  bell: BellOutlined,
  cluster: ClusterOutlined,
  dashboard: DashboardOutlined,
  database: DatabaseOutlined,
  deployment: DeploymentUnitOutlined,
  environment: EnvironmentOutlined,
  file: FileTextOutlined,
  'file-search': FileSearchOutlined,
  'file-text': FileTextOutlined,
  form: FormOutlined,
  hdd: HddOutlined,
  home: HomeOutlined,
  key: KeyOutlined,
  lock: LockOutlined,
  menu: MenuOutlined,
  mobile: MobileOutlined,
  notification: NotificationOutlined,
  profile: ProfileOutlined,
  safety: SafetyOutlined,
  setting: SettingOutlined,
  shop: ShopOutlined,
  table: TableOutlined,
  tags: TagsOutlined,
  team: TeamOutlined,
  tool: ToolOutlined,
  user: UserOutlined,
  wifi: WifiOutlined,
};

export function MenuIcon({ name }: { name: string | null }) {
  if (!name) return null;
  const Icon =
    ICONS[
      name
        .replace(/Outlined$/i, '')
        .replace(/([a-z])([A-Z])/g, '$1-$2')
        .toLowerCase()
    ];
  return Icon ? <Icon /> : <AppstoreOutlined />;
}
