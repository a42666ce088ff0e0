import type { Lang } from './i18n.js';

type Params = Record<string, string | number>;
type Text = string | ((p: Params) => string);

/** Every message a client can see, in both languages. Keys are what services throw. */
const CATALOGUE = {
  badRequest: { 'zh-CN': '请求参数错误', 'en-US': 'Invalid request' },
  unauthorized: { 'zh-CN': 'Token失效，请重新登录', 'en-US': 'Token expired, please log in again' },
  forbidden: { 'zh-CN': '拒绝访问', 'en-US': 'Access denied' },
  notFound: { 'zh-CN': '很抱歉，资源未找到!', 'en-US': 'Sorry, the resource was not found' },
  conflict: { 'zh-CN': '数据冲突', 'en-US': 'Conflict' },
  payloadTooLarge: { 'zh-CN': '请求内容过大', 'en-US': 'Request is too large' },
  unsupportedMediaType: { 'zh-CN': '不支持的内容类型', 'en-US': 'Unsupported content type' },
  tooManyRequests: {
    'zh-CN': '请求过于频繁，请稍后再试',
    'en-US': 'Too many requests, please try again later',
  },
  internalError: { 'zh-CN': '服务器内部错误', 'en-US': 'Internal server error' },
  databaseUnavailable: {
    'zh-CN': '数据库暂不可用，请稍后再试',
    'en-US': 'The database is unavailable; please try again later',
  },

  captchaInvalid: { 'zh-CN': '验证码错误', 'en-US': 'Invalid verification code' },
  loginFailed: { 'zh-CN': '用户名或密码错误', 'en-US': 'Incorrect username or password' },
  loginLocked: {
    'zh-CN': (p) => `登录失败次数过多，账号已锁定，请${p.minutes}分钟后再试`,
    'en-US': (p) =>
      `Too many failed logins: the account is locked, try again in ${p.minutes} minutes`,
  },
  userFrozen: { 'zh-CN': '该用户已冻结', 'en-US': 'This account is frozen' },
  logoutSucceeded: { 'zh-CN': '退出登录成功', 'en-US': 'Logged out' },
  loginSucceeded: { 'zh-CN': '登录成功', 'en-US': 'Logged in' },
  loginLogContent: {
    'zh-CN': (p) => `用户 ${p.username} 登录成功`,
    'en-US': (p) => `User ${p.username} logged in`,
  },
  notYourself: {
    'zh-CN': '只能操作当前登录用户',
    'en-US': 'You can only act on your own account',
  },
  notYourDepartment: {
    'zh-CN': '拒绝访问：不是您的部门',
    'en-US': 'Access denied: not your department',
  },
  companyDenied: {
    'zh-CN': '拒绝访问：不属于该公司',
    'en-US': 'Access denied: not a member of this company',
  },
  // A field problem (issue 16): the console shows it under the old password field.
  oldPasswordWrong: {
    'zh-CN': 'oldpassword: 旧密码输入错误',
    'en-US': 'oldpassword: Old password is incorrect',
  },
  passwordChanged: { 'zh-CN': '密码修改成功', 'en-US': 'Password changed successfully' },
  departSelected: { 'zh-CN': '部门切换成功', 'en-US': 'Department switched' },
  duplicateAvailable: { 'zh-CN': '该值可用！', 'en-US': 'Value is available' },
  duplicateTaken: {
    'zh-CN': '该值不可用，系统中已存在！',
    'en-US': 'This value already exists',
  },
  duplicateNotAllowed: {
    'zh-CN': 'tableName/fieldName: 不支持校验该字段',
    'en-US': 'tableName/fieldName: this field cannot be checked',
  },
  dictNotFound: { 'zh-CN': '字典不存在', 'en-US': 'Dictionary not found' },
  deviceSnExists: { 'zh-CN': 'SN已存在！', 'en-US': 'SN already exists!' },
  deviceNotFound: { 'zh-CN': '设备不存在', 'en-US': 'Device not found' },
  deviceDataRangeInvalid: {
    'zh-CN': 'end: 结束时间不能早于开始时间',
    'en-US': 'end: must not be earlier than begin',
  },
  dataRetentionSaved: { 'zh-CN': '数据保留设置已保存', 'en-US': 'Data retention saved' },
  deviceTokenNotFound: {
    'zh-CN': 'tokenId: Token密钥不存在',
    'en-US': 'tokenId: token key not found',
  },
  deviceTokenInUse: {
    'zh-CN': (p) => `该Token密钥下还有 ${p.count} 台设备，请先删除或迁移这些设备`,
    'en-US': (p) =>
      `${p.count} devices still use this token key: delete them or move them to another token first`,
  },
  deviceGroupNotFound: { 'zh-CN': 'groupId: 分组不存在', 'en-US': 'groupId: group not found' },
  deviceGroupNameExists: { 'zh-CN': '分组名称已存在！', 'en-US': 'Group name already exists!' },
  deviceLogContentTooLarge: {
    'zh-CN': (p) => `content: 日志内容不能超过 64 KiB（当前 ${p.size} 字节）`,
    'en-US': (p) => `content: log content must be at most 64 KiB (got ${p.size} bytes)`,
  },
  importFileMissing: { 'zh-CN': 'file: 请上传文件', 'en-US': 'file: is required' },
  importFileType: {
    'zh-CN': 'file: 只支持 .xlsx 和 .csv 文件',
    'en-US': 'file: must be an .xlsx or .csv file',
  },
  importFileTooLarge: {
    'zh-CN': (p) => `file: 文件不能超过 ${p.mb} MB`,
    'en-US': (p) => `file: must be at most ${p.mb} MB`,
  },
  importFileUnreadable: {
    'zh-CN': 'file: 无法读取文件内容',
    'en-US': 'file: the file could not be read',
  },
  importFieldInvalid: {
    'zh-CN': (p) => `${p.field}: 格式不正确`,
    'en-US': (p) => `${p.field}: is invalid`,
  },
  importNoHeader: {
    'zh-CN': (p) => `file: 第一行必须是表头，且包含列 ${p.columns}`,
    'en-US': (p) => `file: the first row must be a header with the columns ${p.columns}`,
  },
  importTooManyRows: {
    'zh-CN': (p) => `file: 最多导入 ${p.max} 行`,
    'en-US': (p) => `file: at most ${p.max} rows can be imported`,
  },
  // Spreadsheet imports (platform/sheet): zip bombs and one import at a time per company.
  sheetUncompressedTooLarge: {
    'zh-CN': (p) => `file: 文件解压后超过 ${p.mb} MB，拒绝导入`,
    'en-US': (p) => `file: the file would uncompress to more than ${p.mb} MB and is refused`,
  },
  importBusy: {
    'zh-CN': '已有导入正在进行，请等它完成后再试',
    'en-US': 'An import is already running for your company; try again when it has finished',
  },
  importRowRequired: { 'zh-CN': '不能为空', 'en-US': 'is required' },
  importRowTooLong: {
    'zh-CN': (p) => `最多 ${p.max} 个字符`,
    'en-US': (p) => `must be at most ${p.max} characters`,
  },
  importRowSnInvalid: {
    'zh-CN': '必须是 1-64 位字母、数字、_ 或 -',
    'en-US': 'must be 1 to 64 letters, digits, _ or -',
  },
  importRowSnDuplicate: {
    'zh-CN': (p) => `SN 与第 ${p.row} 行重复`,
    'en-US': (p) => `SN repeats row ${p.row}`,
  },
  importRowSnExists: { 'zh-CN': 'SN已存在！', 'en-US': 'SN already exists!' },
  importRowSeriesInvalid: {
    'zh-CN': (p) => `必须是以下之一：${p.values}`,
    'en-US': (p) => `must be one of: ${p.values}`,
  },
  importRowGroupUnknown: {
    'zh-CN': (p) => `分组 ${p.name} 不存在`,
    'en-US': (p) => `group ${p.name} does not exist`,
  },
  deviceColumnSn: { 'zh-CN': 'SN', 'en-US': 'SN' },
  deviceColumnName: { 'zh-CN': '设备名称', 'en-US': 'Name' },
  deviceColumnSeries: { 'zh-CN': '设备系列', 'en-US': 'Series' },
  deviceColumnModel: { 'zh-CN': '型号', 'en-US': 'Model' },
  deviceColumnVersion: { 'zh-CN': '固件版本', 'en-US': 'Firmware version' },
  deviceColumnGroup: { 'zh-CN': '分组', 'en-US': 'Group' },
  deviceColumnRemark: { 'zh-CN': '备注', 'en-US': 'Remark' },
  deviceColumnLocation: { 'zh-CN': '位置', 'en-US': 'Location' },
  deviceColumnTagCode: { 'zh-CN': '设备标签码', 'en-US': 'Tag code' },
  deviceColumnStatus: { 'zh-CN': '状态', 'en-US': 'Status' },
  deviceColumnToken: { 'zh-CN': 'Token密钥', 'en-US': 'Token key' },
  deviceColumnOwner: { 'zh-CN': '所属用户', 'en-US': 'Owner' },
  deviceColumnIp: { 'zh-CN': 'IP', 'en-US': 'IP' },
  deviceColumnLastSeen: { 'zh-CN': '最后在线', 'en-US': 'Last seen' },
  deviceColumnCreateTime: { 'zh-CN': '创建时间', 'en-US': 'Created' },
  deviceStatusOnline: { 'zh-CN': '在线', 'en-US': 'Online' },
  deviceStatusOffline: { 'zh-CN': '离线', 'en-US': 'Offline' },
  deviceExportSheet: { 'zh-CN': '设备列表', 'en-US': 'Devices' },
  deviceLogSubjectAdd: { 'zh-CN': '添加设备', 'en-US': 'Device added' },
  deviceLogSubjectEdit: { 'zh-CN': '编辑设备', 'en-US': 'Device edited' },
  deviceLogSubjectDelete: { 'zh-CN': '删除设备', 'en-US': 'Device deleted' },
  deviceLogSubjectImport: { 'zh-CN': '导入设备', 'en-US': 'Device imported' },
  deviceLogSubjectMove: { 'zh-CN': '移动分组', 'en-US': 'Device moved to a group' },
  deviceLogSubjectConfigPush: { 'zh-CN': '下发配置', 'en-US': 'Configuration pushed' },
  deviceLogSubjectCommandSend: { 'zh-CN': '下发命令', 'en-US': 'Command sent' },
  deviceLogSubjectOtaNotify: { 'zh-CN': '升级通知', 'en-US': 'Upgrade notified' },
  deviceConfigInvalid: {
    'zh-CN': (p) => `config.${p.path}: 不符合 ${p.series} 的配置要求（${p.rule}）`,
    'en-US': (p) => `config.${p.path}: ${p.rule}`,
  },
  deviceConfigStale: {
    'zh-CN': (p) => `baseVersion: 配置已被修改（当前版本 ${p.version}），请刷新后再改`,
    'en-US': (p) =>
      `baseVersion: the configuration was changed meanwhile (now version ${p.version}); reload it and edit again`,
  },
  deviceConfigSent: { 'zh-CN': '配置已保存并下发', 'en-US': 'Configuration saved and sent' },
  deviceConfigQueued: {
    'zh-CN': '配置已保存，设备上线时下发',
    'en-US': 'Configuration saved; the device gets it when it comes online',
  },
  deviceOffline: {
    'zh-CN': '设备离线，命令只能发给在线设备',
    'en-US': 'The device is offline: commands reach online devices only',
  },
  deviceCommandCustomDenied: {
    'zh-CN': 'method: 自定义命令需要“自定义命令”权限',
    'en-US': 'method: free-form commands need the custom command permission',
  },
  deviceCommandSent: { 'zh-CN': '命令已下发', 'en-US': 'Command sent' },
  deviceCommandTooLarge: {
    'zh-CN': (p) => `params: 命令超过 ${p.kb} KB`,
    'en-US': (p) => `params: the command must be at most ${p.kb} KB as JSON`,
  },
  deleted: { 'zh-CN': '删除成功', 'en-US': 'Deleted' },
  saved: { 'zh-CN': '保存成功', 'en-US': 'Saved' },
  weakPassword: {
    'zh-CN': (p) => `password: ${WEAK_PASSWORD_REASON_ZH[p.reason as WeakPasswordReason]}`,
    'en-US': (p) => `password: ${WEAK_PASSWORD_REASON_EN[p.reason as WeakPasswordReason]}`,
  },
  announcementNotFound: { 'zh-CN': '通告不存在', 'en-US': 'Announcement not found' },
  announcementAudienceInvalid: {
    'zh-CN': (p) => `${p.field}: 只能选择当前公司的${AUDIENCE_ZH[p.field as AudienceField]}`,
    'en-US': (p) => `${p.field}: choose ${AUDIENCE_EN[p.field as AudienceField]} of this company`,
  },
  announcementAudienceEmpty: {
    'zh-CN': (p) => `${p.field}: 请至少选择一个接收对象`,
    'en-US': (p) => `${p.field}: choose at least one recipient`,
  },
  announcementTimeRange: {
    'zh-CN': 'endTime: 结束时间必须晚于开始时间',
    'en-US': 'endTime: must be later than startTime',
  },
  announcementOpenPage: {
    'zh-CN': 'openPage: 打开方式为链接或组件时必须填写，链接须以 http://、https:// 或 / 开头',
    'en-US':
      'openPage: required when openType is url or component; a url starts with http://, https:// or /',
  },
  announcementNotDraft: {
    'zh-CN': '只有草稿可以修改或发布',
    'en-US': 'Only drafts can be edited or published',
  },
  announcementNotPublished: {
    'zh-CN': '只有已发布的通告可以撤销',
    'en-US': 'Only published announcements can be revoked',
  },
  announcementPublished: { 'zh-CN': '发布成功', 'en-US': 'Published' },
  announcementRevoked: { 'zh-CN': '撤销成功', 'en-US': 'Revoked' },
  announcementAllRead: { 'zh-CN': '已全部标记为已读', 'en-US': 'All marked as read' },
  // Organisation: departments, department roles, positions, companies (issue 6, helper C).
  orgSaved: { 'zh-CN': '保存成功', 'en-US': 'Saved' },
  orgDeleted: { 'zh-CN': '删除成功', 'en-US': 'Deleted' },
  orgDepartHasChildren: {
    'zh-CN': '该部门下还有子部门，请先删除子部门',
    'en-US': 'This department has sub-departments: delete them first',
  },
  orgDepartHasMembers: {
    'zh-CN': (p) => `该部门下还有 ${p.count} 名成员，请先移除成员`,
    'en-US': (p) => `This department still has ${p.count} members: remove them first`,
  },
  orgCodeExhausted: {
    'zh-CN': '同级部门数量已达上限',
    'en-US': 'No more departments can be added at this level',
  },
  orgNotMember: {
    'zh-CN': 'userIds: 用户不是该部门的成员',
    'en-US': 'userIds: the user is not a member of this department',
  },
  orgBeyondYourPermissions: {
    'zh-CN': (p) => `permissionIds: 不能授予或收回您自己没有的权限「${p.name}」`,
    'en-US': (p) =>
      `permissionIds: you cannot grant or take away a permission you do not hold: ${p.nameEn}`,
  },
  orgBeyondDepartPermissions: {
    'zh-CN': 'permissionIds: 超出了部门的权限范围',
    'en-US': "permissionIds: beyond the department's permissions",
  },
  orgDepartRoleCodeTaken: {
    'zh-CN': 'roleCode: 该部门下已存在此角色编码',
    'en-US': 'roleCode: this department already has a role with this code',
  },
  orgPositionCodeTaken: {
    'zh-CN': 'code: 职务编码已存在',
    'en-US': 'code: this position code already exists',
  },
  orgPostRankInvalid: {
    'zh-CN': 'postRank: 不是有效的职级',
    'en-US': 'postRank: not a valid rank',
  },
  orgCompanyCodeTaken: {
    'zh-CN': 'code: 客户编码已存在',
    'en-US': 'code: this company code already exists',
  },
  orgAdminTaken: {
    'zh-CN': (p) =>
      `admin.${p.field}: ${p.field === 'username' ? '用户名' : p.field === 'phone' ? '手机号' : '邮箱'}已存在`,
    'en-US': (p) => `admin.${p.field}: this ${p.field} already exists`,
  },
  orgPlatformCompanyFixed: {
    'zh-CN': '平台公司不能冻结',
    'en-US': 'The platform company cannot be frozen',
  },
  orgPlatformAdminOnly: {
    'zh-CN': '只有平台管理员可以管理客户',
    'en-US': 'Only platform administrators manage companies',
  },
  companyFrozen: {
    'zh-CN': '该公司已冻结，无法登录',
    'en-US': 'This company is frozen: its users cannot log in',
  },
  // Administration of login accounts, roles and the menu catalogue (issue 6, helper B).
  adminSaved: { 'zh-CN': '保存成功！', 'en-US': 'Saved' },
  adminDeleted: { 'zh-CN': '删除成功!', 'en-US': 'Deleted' },
  adminPasswordReset: {
    'zh-CN': '密码已重置，该用户需要重新登录',
    'en-US': 'Password reset: the user must log in again',
  },
  adminImported: {
    'zh-CN': (p) => `导入完成：新增 ${p.created} 个用户`,
    'en-US': (p) => `Import finished: ${p.created} users added`,
  },
  adminImportBadFile: {
    'zh-CN': 'file: 请上传含 username 列的 XLSX 或 CSV 文件',
    'en-US': 'file: upload an XLSX or CSV file with a username column',
  },
  adminImportTooLarge: {
    'zh-CN': (p) => `file: 一次最多导入 ${p.max} 行`,
    'en-US': (p) => `file: at most ${p.max} rows per import`,
  },
  adminImportInvalid: {
    'zh-CN': (p) => `${p.field}: 格式不正确`,
    'en-US': (p) => `${p.field}: invalid format`,
  },
  userColumnUsername: { 'zh-CN': '用户账号', 'en-US': 'Username' },
  userColumnRealname: { 'zh-CN': '用户姓名', 'en-US': 'Name' },
  userColumnPhone: { 'zh-CN': '手机号', 'en-US': 'Phone' },
  userColumnEmail: { 'zh-CN': '邮箱', 'en-US': 'Email' },
  userColumnStatus: { 'zh-CN': '状态', 'en-US': 'Status' },
  userColumnCreateTime: { 'zh-CN': '创建时间', 'en-US': 'Created' },
  userStatusNormal: { 'zh-CN': '正常', 'en-US': 'Normal' },
  userStatusFrozen: { 'zh-CN': '冻结', 'en-US': 'Frozen' },
  userExportSheet: { 'zh-CN': '用户列表', 'en-US': 'Users' },
  adminBadIds: { 'zh-CN': 'ids: 不是有效的 ID 列表', 'en-US': 'ids: not a valid list of ids' },
  adminNotInCompany: {
    'zh-CN': (p) => `${p.field}: 含有不属于该公司的项`,
    'en-US': (p) => `${p.field}: contains an entry of another company`,
  },
  adminPlatformOnly: {
    'zh-CN': '拒绝访问：仅平台管理员可执行此操作',
    'en-US': 'Access denied: platform administrators only',
  },
  adminNotOnYourself: {
    'zh-CN': '不能对自己的账号执行此操作',
    'en-US': 'You cannot do this to your own account',
  },
  adminLastAdmin: {
    'zh-CN': '不能删除、冻结或撤销最后一个管理员',
    'en-US': 'The last administrator cannot be deleted, frozen or demoted',
  },
  adminUserOutranks: {
    'zh-CN': '拒绝访问：该用户拥有您没有的权限',
    'en-US': 'Access denied: this user holds permissions you do not have',
  },
  adminPermissionNotHeld: {
    'zh-CN': '拒绝访问：不能授予或收回您自己没有的权限',
    'en-US': 'Access denied: you cannot grant or revoke permissions you do not hold',
  },
  adminRoleCodeTaken: {
    'zh-CN': 'roleCode: 角色编码已存在',
    'en-US': 'roleCode: this role code already exists',
  },
  adminRoleProtected: {
    'zh-CN': '管理员角色不能删除或修改编码与授权',
    'en-US': 'The admin role cannot be deleted, recoded or re-authorised',
  },
  adminUnknownPermission: {
    'zh-CN': (p) => `${p.field}: 含有不存在的权限`,
    'en-US': (p) => `${p.field}: contains an unknown permission`,
  },
  adminUnknownRule: {
    'zh-CN': (p) => `${p.field}: 含有不属于该权限的数据规则`,
    'en-US': (p) => `${p.field}: contains a rule of another permission`,
  },
  adminRuleNotGranted: {
    'zh-CN': 'permissionId: 该角色未被授予此权限',
    'en-US': 'permissionId: the role is not granted this permission',
  },
  adminPermissionParent: {
    'zh-CN': 'parentId: 上级菜单无效（按钮必须属于菜单，且不能成环）',
    'en-US': 'parentId: invalid parent (a button needs a menu parent; no cycles)',
  },
  adminFieldRequired: {
    'zh-CN': (p) => `${p.field}: 不能为空`,
    'en-US': (p) => `${p.field}: is required`,
  },
  adminPermsTaken: {
    'zh-CN': 'perms: 授权标识已存在',
    'en-US': 'perms: this permission code already exists',
  },
  adminNoRuleColumns: {
    'zh-CN': '该权限没有可用于数据规则的字段',
    'en-US': 'This permission has no columns data rules may use',
  },
  adminRuleColumn: {
    'zh-CN': (p) => `ruleColumn: 只能是 ${p.columns}`,
    'en-US': (p) => `ruleColumn: must be one of ${p.columns}`,
  },
  adminRuleVariable: {
    'zh-CN': (p) => `ruleValue: 变量只能是 ${p.variables}`,
    'en-US': (p) => `ruleValue: variables must be one of ${p.variables}`,
  },
  // Self-service accounts (register, phone login, password reset) and check rules.
  usernameExists: { 'zh-CN': '用户名已存在!', 'en-US': 'Username already exists!' },
  emailExists: { 'zh-CN': '邮箱已存在!', 'en-US': 'Email already exists!' },
  phoneExists: { 'zh-CN': '手机号已存在!', 'en-US': 'Contact number already exists!' },
  registerFieldAvailable: { 'zh-CN': '该值可用', 'en-US': 'Available' },
  codeInvalid: { 'zh-CN': '验证码错误或已失效', 'en-US': 'Invalid verification code' },
  codeTooSoon: {
    'zh-CN': (p) => `验证码发送过于频繁，请${p.seconds}秒后再试`,
    'en-US': (p) => `A code was just sent: try again in ${p.seconds} seconds`,
  },
  codeTooMany: {
    'zh-CN': '该号码或邮箱的验证码请求过多，请一小时后再试',
    'en-US': 'Too many codes for this address: try again in an hour',
  },
  codeSent: { 'zh-CN': '验证码已发送', 'en-US': 'Verification code sent' },
  codeSentIfKnown: {
    'zh-CN': '如果该号码或邮箱属于某个账号，验证码已发送',
    'en-US': 'If an account uses this address, a verification code has been sent',
  },
  codeMailSubject: { 'zh-CN': 'BLRMS 验证码', 'en-US': 'Your BLRMS verification code' },
  codeText: {
    'zh-CN': (p) => `【BLRMS】您的验证码是 ${p.code}，${p.minutes} 分钟内有效，请勿告诉他人。`,
    'en-US': (p) =>
      `[BLRMS] Your verification code is ${p.code}. It is valid for ${p.minutes} minutes; do not share it.`,
  },
  smsUnavailable: {
    'zh-CN': '短信服务暂不可用，请稍后再试',
    'en-US': 'The SMS service is unavailable, please try again later',
  },
  registerSucceeded: { 'zh-CN': '注册成功', 'en-US': 'Registration succeeded' },
  passwordResetSucceeded: { 'zh-CN': '密码重置成功!', 'en-US': 'Password reset successful!' },
  smsSettingsSaved: { 'zh-CN': '短信设置已保存', 'en-US': 'SMS settings saved' },
  checkRulePassed: { 'zh-CN': '校验通过', 'en-US': 'Valid' },
  checkRuleMismatch: { 'zh-CN': (p) => String(p.text), 'en-US': (p) => String(p.text) },
  checkRuleNotFound: { 'zh-CN': '校验规则不存在', 'en-US': 'Check rule not found' },
  checkRuleCodeExists: { 'zh-CN': '规则编码已存在', 'en-US': 'Rule code already exists' },
  checkRulePatternUnsafe: {
    'zh-CN': (p) => `rules.${p.index}.pattern: 不是有效的 RE2 正则表达式（${p.detail}）`,
    'en-US': (p) => `rules.${p.index}.pattern: not a valid RE2 regular expression (${p.detail})`,
  },
  checkRuleSaved: { 'zh-CN': '保存成功', 'en-US': 'Saved' },
  checkRuleDeleted: { 'zh-CN': '删除成功', 'en-US': 'Deleted' },

  mqttHookSecretInvalid: {
    'zh-CN': 'MQTT 钩子密钥缺失或错误',
    'en-US': 'Missing or wrong MQTT hook secret',
  },
  deviceOfflineAlertTitle: {
    'zh-CN': (p) => `${p.count} 台设备离线`,
    'en-US': (p) => `${p.count} device(s) offline`,
  },
  deviceOfflineAlertContent: {
    'zh-CN': (p) => `以下设备已离线超过 ${p.seconds} 秒：${p.devices}`,
    'en-US': (p) => `These devices have been offline for more than ${p.seconds} s: ${p.devices}`,
  },
  deviceUnstableAlertTitle: {
    'zh-CN': (p) => `${p.count} 台设备连接不稳定`,
    'en-US': (p) => `${p.count} device(s) with an unstable connection`,
  },
  deviceUnstableAlertContent: {
    'zh-CN': (p) =>
      `以下设备在 ${p.minutes} 分钟内断线 ${p.times} 次以上：${p.devices}。设备稳定 ${p.minutes} 分钟之前不再提醒。`,
    'en-US': (p) =>
      `These devices went offline ${p.times} times or more within ${p.minutes} minutes: ${p.devices}. No further alerts until they have been stable for ${p.minutes} minutes.`,
  },
  deviceAlertMore: {
    'zh-CN': (p) => `等 ${p.count} 台`,
    'en-US': (p) => `and ${p.count} more`,
  },
  // Campaigns (issue 5, helper C).
  campaignStarted: { 'zh-CN': '任务已开始', 'en-US': 'Campaign started' },
  campaignScheduled: {
    'zh-CN': '任务已计划，将按设定时间开始',
    'en-US': 'Campaign scheduled: it starts at the time set',
  },
  campaignApproved: {
    'zh-CN': '已批准，下一批次即将开始',
    'en-US': 'Approved: the next wave starts',
  },
  campaignNotAwaitingApproval: {
    'zh-CN': '任务当前没有等待批准的批次',
    'en-US': 'The campaign is not awaiting approval of a wave',
  },
  campaignPaused: { 'zh-CN': '任务已暂停', 'en-US': 'Campaign paused' },
  campaignResumed: { 'zh-CN': '任务已继续', 'en-US': 'Campaign resumed' },
  campaignCanceled: { 'zh-CN': '任务已取消', 'en-US': 'Campaign canceled' },
  campaignRetried: {
    'zh-CN': '失败的设备已重新排队',
    'en-US': 'The failed devices are queued again',
  },
  campaignNotFound: { 'zh-CN': '任务不存在', 'en-US': 'Campaign not found' },
  campaignStateConflict: {
    'zh-CN': (p) => `任务当前状态为 ${p.state}，不能执行此操作`,
    'en-US': (p) => `The campaign is ${p.state}: this action does not apply`,
  },
  campaignConfigDenied: {
    'zh-CN': '批量配置还需要“修改配置”权限（device:config）',
    'en-US': 'Bulk configuration also needs the device:config permission',
  },
  campaignFirmwareRequired: {
    'zh-CN': 'firmwareId: 升级任务必须选择固件',
    'en-US': 'firmwareId: required for an upgrade',
  },
  campaignSeriesRequired: {
    'zh-CN': 'series: 批量配置必须选择设备系列',
    'en-US': 'series: required for configuration',
  },
  campaignFirmwareNotFound: {
    'zh-CN': 'firmwareId: 固件不存在',
    'en-US': 'firmwareId: firmware not found',
  },
  campaignGroupNotFound: {
    'zh-CN': 'target.groupId: 分组不存在',
    'en-US': 'target.groupId: group not found',
  },
  campaignTargetSeries: {
    'zh-CN': (p) => `target.series: 必须是 ${p.series}（固件或配置所属的系列）`,
    'en-US': (p) =>
      `target.series: must be ${p.series}, the series of the firmware or configuration`,
  },
  campaignVersionRange: {
    'zh-CN': 'target.versionTo: 不能早于 versionFrom',
    'en-US': 'target.versionTo: must not be before versionFrom',
  },
  campaignDevicesNotFound: {
    'zh-CN': (p) => `target.deviceIds: ${p.count} 台设备不存在：${p.ids}`,
    'en-US': (p) => `target.deviceIds: ${p.count} device(s) not found: ${p.ids}`,
  },
  campaignDevicesHidden: {
    'zh-CN': (p) => `target.deviceIds: 无权操作 ${p.count} 台设备：${p.ids}`,
    'en-US': (p) => `target.deviceIds: no access to ${p.count} device(s): ${p.ids}`,
  },
  campaignDevicesSeries: {
    'zh-CN': (p) => `target.deviceIds: ${p.count} 台设备不是 ${p.series} 系列：${p.sns}`,
    'en-US': (p) => `target.deviceIds: ${p.count} device(s) are not ${p.series}: ${p.sns}`,
  },
  campaignNoDevices: {
    'zh-CN': (p) => `target: 没有符合条件的设备（已排除 ${p.excluded} 台）`,
    'en-US': (p) => `target: no devices match (${p.excluded} left out)`,
  },
  campaignConfigInvalid: {
    'zh-CN': (p) => `configPatch.${p.problem}`,
    'en-US': (p) => `configPatch.${p.problem}`,
  },
  // Firmware library (issue 5, helper B).
  firmwareUploaded: { 'zh-CN': '固件上传成功', 'en-US': 'Firmware uploaded' },
  firmwareSettingsSaved: { 'zh-CN': '固件设置已保存', 'en-US': 'Firmware settings saved' },
  firmwareNotFound: { 'zh-CN': '固件不存在', 'en-US': 'Firmware not found' },
  firmwareFileMissing: {
    'zh-CN': 'file: 请在 series、version、releaseNotes 之后上传一个固件文件',
    'en-US': 'file: one firmware file is required, after series, version and releaseNotes',
  },
  firmwareFileEmpty: { 'zh-CN': 'file: 文件不能为空', 'en-US': 'file: must not be empty' },
  firmwareTooLarge: {
    'zh-CN': (p) => `file: 固件文件不能超过 ${p.limit}`,
    'en-US': (p) => `file: firmware files must not exceed ${p.limit}`,
  },
  firmwareVersionExists: {
    'zh-CN': (p) => `version: ${p.series} 系列已有固件版本 ${p.version}`,
    'en-US': (p) => `version: ${p.series} firmware ${p.version} already exists`,
  },
  firmwareInUse: {
    'zh-CN': '该固件正被已计划、进行中或已暂停的升级任务使用，不能删除',
    'en-US':
      'A scheduled, running or paused upgrade campaign uses this firmware: it cannot be deleted',
  },
  firmwareUrlInvalid: { 'zh-CN': '下载链接无效', 'en-US': 'Invalid download link' },
  firmwareUrlExpired: { 'zh-CN': '下载链接已过期', 'en-US': 'The download link has expired' },
  firmwareRangeInvalid: {
    'zh-CN': 'Range: 请求的字节范围超出文件大小',
    'en-US': 'Range: the requested bytes are beyond the end of the file',
  },

  // API keys (issue 14)
  apiKeyInvalid: {
    'zh-CN': 'API密钥无效',
    'en-US': 'Invalid API key',
  },
  apiKeyExpired: {
    'zh-CN': (p) => `API密钥已于 ${p.time} 过期，请创建新的密钥`,
    'en-US': (p) => `This API key expired at ${p.time}; create a new one`,
  },
  apiKeyRevoked: {
    'zh-CN': 'API密钥已被撤销',
    'en-US': 'This API key has been revoked',
  },
  apiKeyNotAllowed: {
    'zh-CN': '此操作不能使用API密钥，请登录后操作',
    'en-US': 'API keys cannot be used for this operation; sign in instead',
  },
  apiKeyForbidden: {
    'zh-CN': (p) => `API密钥没有权限：${p.code}`,
    'en-US': (p) => `The API key does not hold the permission ${p.code}`,
  },
  apiKeyRateLimited: {
    'zh-CN': (p) => `API密钥调用过于频繁，请 ${p.seconds} 秒后再试`,
    'en-US': (p) => `Too many calls with this API key; try again in ${p.seconds} seconds`,
  },
  apiKeyPermissionNotHeld: {
    'zh-CN': (p) => `permissions: 您没有权限 ${p.code}，不能授予API密钥`,
    'en-US': (p) => `permissions: you do not hold ${p.code}, so a key cannot have it`,
  },
  apiKeyExpiryPast: {
    'zh-CN': 'expireTime: 必须晚于当前时间',
    'en-US': 'expireTime: must be in the future',
  },
  apiKeyExpiryTooLate: {
    'zh-CN': (p) => `expireTime: 最长有效期为 ${p.days} 天`,
    'en-US': (p) => `expireTime: must be at most ${p.days} days from now`,
  },
  apiKeyCompanyFrozen: {
    'zh-CN': '该公司已冻结，API密钥暂不可用',
    'en-US': 'This company is frozen: its API keys are refused until it is unfrozen',
  },
  apiKeyNotFound: {
    'zh-CN': 'API密钥不存在',
    'en-US': 'API key not found',
  },
  apiKeyCreated: {
    'zh-CN': 'API密钥已创建，请立即复制保存，它不会再次显示',
    'en-US': 'API key created: copy it now, it will not be shown again',
  },
  apiKeyRevokedOk: {
    'zh-CN': 'API密钥已撤销',
    'en-US': 'API key revoked',
  },
  // Login lockout and two-factor login (issue 14, helper authflow).
  twoFactorChallengeInvalid: {
    'zh-CN': '二次验证已失效，请重新登录',
    'en-US': 'The two-factor step has expired: log in again',
  },
  twoFactorCodeInvalid: { 'zh-CN': '动态验证码错误', 'en-US': 'Incorrect authentication code' },
  twoFactorAlreadyEnabled: {
    'zh-CN': '已开启二次验证',
    'en-US': 'Two-factor login is already on',
  },
  twoFactorNotStarted: {
    'zh-CN': '请先获取二维码再输入验证码',
    'en-US': 'Start the set-up (QR code) before entering a code',
  },
  twoFactorNotEnabled: { 'zh-CN': '未开启二次验证', 'en-US': 'Two-factor login is not on' },
  twoFactorRequired: {
    'zh-CN': '所在企业或平台要求二次验证，不能关闭',
    'en-US': 'Your company or the platform requires two-factor login: it cannot be turned off',
  },
  twoFactorPasswordInvalid: { 'zh-CN': '密码错误', 'en-US': 'Incorrect password' },
  twoFactorEnabled: { 'zh-CN': '二次验证已开启', 'en-US': 'Two-factor login is on' },
  twoFactorDisabled: { 'zh-CN': '二次验证已关闭', 'en-US': 'Two-factor login is off' },
  twoFactorResetDone: {
    'zh-CN': '已重置该用户的二次验证',
    'en-US': "The user's second factor was reset",
  },
  twoFactorPolicySaved: { 'zh-CN': '二次验证要求已保存', 'en-US': 'Two-factor requirement saved' },
  loginUnlocked: { 'zh-CN': '已解除登录锁定', 'en-US': 'Login lock lifted' },
  // Single sign-on (CAS 3.0, OpenID Connect)
  ssoNotConfigured: {
    'zh-CN': (p) => `未配置 ${p.protocol} 单点登录`,
    'en-US': (p) => `Single sign-on through ${p.protocol} is not configured`,
  },
  ssoCallbackInvalid: {
    'zh-CN': (p) => `${p.field}: 不是本控制台的单点登录回调地址`,
    'en-US': (p) => `${p.field}: not this console's single sign-on callback address`,
  },
  ssoTicketInvalid: {
    'zh-CN': 'CAS 票据无效、已过期或已使用，请重新登录',
    'en-US': 'The CAS ticket is invalid, expired or already used; please sign in again',
  },
  ssoStateInvalid: {
    'zh-CN': '单点登录请求已过期或已使用，请重新登录',
    'en-US': 'The single sign-on request has expired or was already used; please sign in again',
  },
  ssoTokenInvalid: {
    'zh-CN': '身份提供方的应答未通过校验，请重新登录',
    'en-US': "The identity provider's answer failed verification; please sign in again",
  },
  ssoUsernameMissing: {
    'zh-CN': (p) => `身份提供方未提供用于匹配用户名的 ${p.name}`,
    'en-US': (p) => `The identity provider sent no ${p.name} to match a username with`,
  },
  ssoUserUnknown: {
    'zh-CN': (p) => `账号 ${p.username} 不能通过单点登录进入本平台，请联系管理员`,
    'en-US': (p) =>
      `The account ${p.username} cannot sign in here through single sign-on; ask your administrator`,
  },
  ssoCompanyUnknown: {
    'zh-CN': (p) => `单点登录配置的客户 ${p.code} 不存在，请联系管理员`,
    'en-US': (p) =>
      `The company ${p.code} configured for single sign-on does not exist; ask your administrator`,
  },
  ssoProviderUnavailable: {
    'zh-CN': '无法连接单点登录服务，请稍后再试或使用账号密码登录',
    'en-US':
      'The single sign-on service cannot be reached; try again later or log in with a password',
  },
  // Security hardening: escalation, data rules, frozen companies, menu URLs, quotas (issue 14).
  orgRoleNotOnYourself: {
    'zh-CN': 'userIds: 不能给自己分配或收回部门角色',
    'en-US': 'userIds: you cannot give yourself a department role or take one from yourself',
  },
  dataRuleBypassed: {
    'zh-CN': (p) =>
      `已保存。注意：该角色有 ${p.count} 个用户通过其他未设数据规则的角色拥有同一权限，规则不会限制他们（多个角色的授权取并集）`,
    'en-US': (p) =>
      `Saved. Note: ${p.count} user(s) of this role hold the same permission through another role without data rules, so these rules do not narrow what they see (grants of several roles add up)`,
  },
  menuUrlScheme: {
    'zh-CN': (p) => `${p.field}: 必须是以 / 开头的控制台路径或 http(s):// 地址`,
    'en-US': (p) => `${p.field}: must be a console path starting with / or an http(s):// address`,
  },
  // Per-company storage quota (issue 14 item 9).
  storageQuotaExceeded: {
    'zh-CN': (p) => `file: 超出本公司的存储配额（已用 ${p.used}，上限 ${p.limit}），文件未保存`,
    'en-US': (p) =>
      `file: the company's storage quota is exceeded (${p.used} of ${p.limit} used); the file was not stored`,
  },
} satisfies Record<string, Record<Lang, Text>>;

export type MessageKey = keyof typeof CATALOGUE;

export type WeakPasswordReason = 'same' | 'sameChar' | 'digitsOnly' | 'username' | 'common';

const WEAK_PASSWORD_REASON_EN: Record<WeakPasswordReason, string> = {
  same: 'must differ from the old password',
  sameChar: 'must not repeat a single character',
  digitsOnly: 'must not be only digits',
  username: 'must not be the username',
  common: 'is too common',
};

const WEAK_PASSWORD_REASON_ZH: Record<WeakPasswordReason, string> = {
  same: '不能与旧密码相同',
  sameChar: '不能全部是同一个字符',
  digitsOnly: '不能全部是数字',
  username: '不能与用户名相同',
  common: '过于常见，请换一个',
};

type AudienceField = 'userIds' | 'departIds' | 'roleIds';
const AUDIENCE_EN: Record<AudienceField, string> = {
  userIds: 'users',
  departIds: 'departments',
  roleIds: 'roles',
};
const AUDIENCE_ZH: Record<AudienceField, string> = {
  userIds: '用户',
  departIds: '部门',
  roleIds: '角色',
};

export function message(lang: Lang, key: MessageKey, params: Params = {}): string {
  const text: Text = CATALOGUE[key][lang];
  return typeof text === 'function' ? text(params) : text;
}
