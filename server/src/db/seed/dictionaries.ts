export interface SeedDict {
  code: string;
  name: string;
  nameEn: string;
  items: { value: string; text: string; textEn: string; color?: string }[];
}

export const DICTIONARIES: SeedDict[] = [
  {
    code: 'priority',
    name: '优先级',
    nameEn: 'Priority',
    items: [
      { value: 'L', text: '一般消息', textEn: 'Normal', color: 'blue' },
      { value: 'M', text: '重要消息', textEn: 'Important', color: 'orange' },
      { value: 'H', text: '紧急消息', textEn: 'Urgent', color: 'red' },
    ],
  },
  {
    code: 'user_status',
    name: '用户状态',
    nameEn: 'User status',
    items: [
      { value: '1', text: '正常', textEn: 'Normal' },
      { value: '2', text: '冻结', textEn: 'Frozen' },
    ],
  },
  {
    code: 'log_type',
    name: '日志类型',
    nameEn: 'Log type',
    items: [
      { value: '1', text: '登录日志', textEn: 'Login log' },
      { value: '2', text: '操作日志', textEn: 'Operation log' },
    ],
  },
  {
    code: 'org_category',
    name: '机构类型',
    nameEn: 'Organization category',
    items: [
      { value: '1', text: '公司', textEn: 'Company' },
      { value: '2', text: '部门', textEn: 'Department' },
      { value: '3', text: '岗位', textEn: 'Post' },
    ],
  },
  {
    code: 'yn',
    name: '是否',
    nameEn: 'Yes/No',
    items: [
      { value: '1', text: '是', textEn: 'Yes' },
      { value: '0', text: '否', textEn: 'No' },
    ],
  },
  {
    code: 'position_rank',
    name: '职级',
    nameEn: 'Position rank',
    items: [
      { value: '1', text: '员级', textEn: 'Staff' },
      { value: '2', text: '助级', textEn: 'Assistant' },
      { value: '3', text: '中级', textEn: 'Intermediate' },
      { value: '4', text: '副高级', textEn: 'Associate senior' },
      { value: '5', text: '正高级', textEn: 'Senior' },
    ],
  },
  {
    code: 'device_series',
    name: '设备系列',
    nameEn: 'Device series',
    items: [
      { value: 'R40', text: 'R40', textEn: 'R40' },
      { value: 'BL10X', text: 'BL10X', textEn: 'BL10X' },
      { value: 'S27X', text: 'S27X', textEn: 'S27X' },
    ],
  },
  {
    code: 'device_status',
    name: '设备状态',
    nameEn: 'Device status',
    items: [
      { value: 'online', text: '在线', textEn: 'Online', color: 'green' },
      { value: 'offline', text: '离线', textEn: 'Offline', color: 'default' },
    ],
  },
  {
    code: 'msg_category',
    name: '消息类型',
    nameEn: 'Message category',
    items: [
      { value: '1', text: '通知公告', textEn: 'Announcement' },
      { value: '2', text: '系统消息', textEn: 'System message' },
    ],
  },
  {
    code: 'send_status',
    name: '发布状态',
    nameEn: 'Publishing status',
    items: [
      { value: '0', text: '未发布', textEn: 'Draft' },
      { value: '1', text: '已发布', textEn: 'Published' },
      { value: '2', text: '已撤销', textEn: 'Revoked' },
    ],
  },
  {
    code: 'device_log_state',
    name: '设备日志状态',
    nameEn: 'Device log state',
    items: [
      { value: 'pending', text: '待发送', textEn: 'Pending' },
      { value: 'sent', text: '已发送', textEn: 'Sent' },
      { value: 'acked', text: '已确认', textEn: 'Acknowledged' },
      { value: 'succeeded', text: '成功', textEn: 'Succeeded' },
      { value: 'failed', text: '失败', textEn: 'Failed' },
      { value: 'timeout', text: '超时', textEn: 'Timed out' },
    ],
  },
];
