import { BellOutlined, DashboardOutlined, UserOutlined } from '@ant-design/icons';
import {
  Avatar,
  Badge,
  Breadcrumb,
  Button,
  Card,
  Col,
  Descriptions,
  Dropdown,
  Empty,
  Flex,
  Layout,
  Menu,
  Popover,
  Row,
  Select,
  Skeleton,
  Space,
  Spin,
  Statistic,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { formatDateTime, formatNumber } from '../../shared/format';
import { ConsoleProviders } from '../ConsoleProviders';
import { whenConsoleShown } from './rehearsal-end';

/**
 * How long the rehearsal stays after the console's shell is on screen: its styles stay cached as
 * long as something on the page uses them, and the first page may still be arriving (a page other
 * than home, not loaded ahead). After that the console has generated whatever it needs itself.
 */
const KEEP_AFTER_SHOWN_MS = 5000;

type Row = { id: string; createTime: string; ip: string };

const MENU = [
  {
    key: 'home',
    icon: <DashboardOutlined />,
    label: '\u00a0',
    children: [{ key: 'page', label: '\u00a0' }],
  },
  { key: 'other', icon: <UserOutlined />, label: '\u00a0' },
];

const COLUMNS = [
  {
    dataIndex: 'createTime',
    width: 180,
    render: (v: string) => formatDateTime(v),
  },
  { dataIndex: 'ip', width: 140, ellipsis: true },
];

/**
 * The antd components of the console's shell (side menu, header, tabs, breadcrumb) and of its home
 * page (cards, statistics, descriptions, tags, a table), nothing shown and nothing asked of the
 * server. Rendering them makes antd generate and insert their styles for the console's theme and
 * gets React's and antd's code compiled, which is most of the console's first render.
 */
function ConsoleRehearsal() {
  const rows: Row[] = [{ id: '1', createTime: new Date().toISOString(), ip: '127.0.0.1' }];
  return (
    <Layout>
      <Layout.Sider theme="dark" collapsible trigger={null}>
        <Menu
          theme="dark"
          mode="inline"
          items={MENU}
          defaultOpenKeys={['home']}
          selectedKeys={['page']}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header>
          <Menu theme="light" mode="horizontal" items={MENU} />
          <Select showSearch value={null} options={[]} />
          <Tooltip title="-">
            <Badge count={1} size="small">
              <BellOutlined />
            </Badge>
          </Tooltip>
          <Popover content="-">
            <Button type="text" icon={<BellOutlined />} />
          </Popover>
          <Dropdown menu={{ items: [] }}>
            <Space>
              <Avatar size="small" icon={<UserOutlined />} />
            </Space>
          </Dropdown>
        </Layout.Header>
        <Tabs
          type="editable-card"
          size="small"
          hideAdd
          items={[{ key: 'page', label: '\u00a0', closable: true }]}
        />
        <Layout.Content>
          <Breadcrumb items={[{ title: '\u00a0' }, { title: '\u00a0' }]} />
          <Spin size="large" />
          <Space direction="vertical" size={16}>
            <Card>
              <Flex justify="space-between" align="center" wrap gap={16}>
                <Avatar size={56} icon={<UserOutlined />} />
                <Typography.Title level={4}>{'\u00a0'}</Typography.Title>
                <Typography.Text type="secondary">{'\u00a0'}</Typography.Text>
              </Flex>
            </Card>
            <Row gutter={[16, 16]}>
              <Col xs={24} sm={8} lg={16}>
                <Card title="-">
                  <Statistic value={1234} formatter={(v) => formatNumber(Number(v))} />
                  <Statistic value={0} loading />
                  <Skeleton active paragraph={{ rows: 2 }} />
                </Card>
              </Col>
              <Col xs={24} lg={8}>
                <Card title="-">
                  <Descriptions
                    column={1}
                    size="small"
                    items={[{ key: 'a', label: '-', children: <Tag color="blue">-</Tag> }]}
                  />
                  <Tag>-</Tag>
                </Card>
              </Col>
            </Row>
            <Card title="-">
              <Table<Row>
                rowKey="id"
                size="small"
                columns={COLUMNS}
                dataSource={rows}
                pagination={false}
                scroll={{ x: 480 }}
              />
              <Table<Row>
                rowKey="id"
                size="small"
                columns={COLUMNS}
                dataSource={[]}
                loading
                pagination={false}
                locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
              />
            </Card>
            <Button type="primary">-</Button>
          </Space>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

let started = false;

/**
 * Rehearses the console's first render while the user signs in: the components above, in a hidden
 * React root of their own, rendered as a transition (in slices, so typing stays responsive). They stay
 * until the console's shell has been on screen a while, so the console finds antd's style cache
 * warm instead of generating hundreds of rules after the click. Once per page.
 */
export function rehearseConsole(): void {
  if (started) return;
  started = true;
  // Hidden, and behind a closed shadow root: nothing that looks for the console's elements (the
  // page's own scripts, assistive technology, tests) finds the rehearsal's. antd still inserts
  // the styles into the document's head, where the console finds them.
  const host = document.createElement('div');
  host.hidden = true;
  host.dataset.consoleRehearsal = '';
  const container = document.createElement('div');
  host.attachShadow({ mode: 'closed' }).append(container);
  document.body.append(host);
  // Its own prefix keeps the ids React generates apart from the console's.
  const root = createRoot(container, { identifierPrefix: 'rehearsal-' });
  startTransition(() => {
    root.render(
      <StrictMode>
        <ConsoleProviders>
          <ConsoleRehearsal />
        </ConsoleProviders>
      </StrictMode>,
    );
  });
  whenConsoleShown(() => {
    window.setTimeout(() => {
      root.unmount();
      host.remove();
    }, KEEP_AFTER_SHOWN_MS);
  });
}
