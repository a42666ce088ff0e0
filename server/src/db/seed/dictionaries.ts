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
];
