/**
 * Row types of the tables, as Kysely sees them. Ids are 32-hex text, times epoch ms, booleans 0/1:
 * the same values on SQLite and PostgreSQL.
 */
export interface SysCompanyTable {
  id: string;
  name: string;
  code: string;
  status: number;
  is_platform: number;
  create_time: number;
  update_time: number | null;
  /** Bytes of stored files allowed; NULL: the deployment default; 0: unlimited. */
  storage_quota: number | null;
}

export interface SysUserTable {
  id: string;
  company_id: string;
  username: string;
  realname: string;
  password_hash: string;
  avatar: string | null;
  phone: string | null;
  email: string | null;
  status: number;
  org_code: string | null;
  del_flag: number;
  create_by: string | null;
  create_time: number;
  update_time: number | null;
}

export interface SysUserCompanyTable {
  user_id: string;
  company_id: string;
}

export interface SysRoleTable {
  id: string;
  company_id: string;
  role_code: string;
  role_name: string;
  role_name_en: string | null;
  description: string | null;
  create_time: number;
}

export interface SysUserRoleTable {
  user_id: string;
  role_id: string;
}

export interface SysPermissionTable {
  id: string;
  parent_id: string | null;
  name: string;
  name_en: string | null;
  url: string | null;
  component: string | null;
  component_name: string | null;
  redirect: string | null;
  menu_type: number;
  perms: string | null;
  perms_type: string;
  status: string;
  sort_no: number;
  icon: string | null;
  hidden: number;
  keep_alive: number;
  always_show: number;
  route: number;
  internal_or_external: number;
  is_leaf: number;
  del_flag: number;
  create_time: number;
  /** Null: the shared catalogue; else a row only this company sees (a published online form). */
  company_id: string | null;
}

export interface SysRolePermissionTable {
  role_id: string;
  permission_id: string;
  data_rule_ids: string | null;
}

export interface SysPermissionDataRuleTable {
  id: string;
  permission_id: string;
  rule_name: string;
  rule_column: string;
  rule_conditions: string;
  rule_value: string;
  status: string;
  create_time: number;
}

export interface SysDepartTable {
  id: string;
  company_id: string;
  parent_id: string | null;
  depart_name: string;
  depart_name_en: string | null;
  org_code: string;
  org_category: number;
  depart_order: number;
  status: number;
  create_time: number;
}

export interface SysUserDepartTable {
  user_id: string;
  depart_id: string;
}

export interface SysDepartPermissionTable {
  depart_id: string;
  permission_id: string;
  data_rule_ids: string | null;
}

export interface SysDepartRoleTable {
  id: string;
  depart_id: string;
  role_name: string;
  role_code: string;
  create_time: number;
}

export interface SysDepartRoleUserTable {
  user_id: string;
  drole_id: string;
}

export interface SysDepartRolePermissionTable {
  depart_id: string;
  role_id: string;
  permission_id: string;
  data_rule_ids: string | null;
}

export interface SysPositionTable {
  id: string;
  company_id: string;
  code: string;
  name: string;
  post_rank: string | null;
  create_time: number;
}

export interface SysUserPositionTable {
  user_id: string;
  position_id: string;
}

/** A dictionary; the platform company's are the platform dictionaries every company reads. */
export interface SysDictTable {
  id: string;
  company_id: string;
  dict_name: string;
  dict_name_en: string | null;
  dict_code: string;
  description: string | null;
  /** 1 while in the recycle bin. */
  del_flag: number;
  create_by: string | null;
  create_time: number;
  update_time: number | null;
}

export interface SysDictItemTable {
  id: string;
  dict_id: string;
  item_text: string;
  item_text_en: string | null;
  item_value: string;
  item_color: string | null;
  description: string | null;
  sort_order: number;
  status: number;
  create_time: number;
  update_time: number | null;
}

export interface SysSessionTable {
  id: string;
  token_hash: string;
  user_id: string;
  company_id: string;
  ip: string | null;
  user_agent: string | null;
  create_time: number;
  expire_time: number;
  revoked_time: number | null;
  last_seen_time: number | null;
}

/** A personal API key (issue 14); `permissions` is a JSON array of permission codes. */
export interface SysApiKeyTable {
  id: string;
  user_id: string;
  company_id: string;
  name: string;
  secret_hash: string;
  permissions: string;
  create_time: number;
  expire_time: number;
  revoke_time: number | null;
  revoke_reason: string | null;
  last_used_time: number | null;
  last_used_ip: string | null;
}

export interface SysCaptchaTable {
  check_key: string;
  code_hash: string;
  expire_time: number;
}

/** Failed logins of one username from one source address. */
export interface SysLoginFailureTable {
  username: string;
  ip: string;
  fail_count: number;
  locked_until: number | null;
  update_time: number;
}

/** A user's TOTP secret (AES-GCM encrypted); `enabled` 0 while enrolment awaits its first code. */
export interface SysUserTwoFactorTable {
  user_id: string;
  secret_enc: string;
  enabled: number;
  /** The last time step whose code was accepted: a code is never accepted twice. */
  last_step: number | null;
  create_time: number;
  enabled_time: number | null;
}

export interface SysTwoFactorRecoveryTable {
  user_id: string;
  code_hash: string;
  used_time: number | null;
}

/** Between a correct password and the second factor: `verify` a code, or `enrol` first. */
export interface SysLoginChallengeTable {
  token_hash: string;
  user_id: string;
  ip: string;
  user_agent: string | null;
  kind: 'verify' | 'enrol';
  secret_enc: string | null;
  attempts: number;
  expire_time: number;
}

export interface SysLogTable {
  id: string;
  company_id: string | null;
  log_type: number;
  log_content: string;
  operate_type: string | null;
  user_id: string | null;
  username: string | null;
  ip: string | null;
  method: string | null;
  request_url: string | null;
  status: number | null;
  cost_time: number | null;
  create_time: number;
  /** JSON `{ action, subject, name? }` of an operation: rendered in the reader's language. */
  content_params: string | null;
  /** JSON of the query and body, secrets left out: what the details drawer shows. */
  request_params: string | null;
}

export interface DeviceTokenTable {
  id: string;
  company_id: string;
  owner_id: string;
  code: string;
  name: string;
  remark: string | null;
  token_key: string;
  key_hash: string;
  auto_register: number;
  enabled: number;
  create_time: number;
  update_time: number | null;
}

export interface DeviceGroupTable {
  id: string;
  company_id: string;
  name: string;
  remark: string | null;
  create_time: number;
  update_time: number | null;
}

export interface DeviceTable {
  id: string;
  company_id: string;
  token_id: string;
  sn: string;
  name: string;
  series: string;
  model: string | null;
  version: string | null;
  group_id: string | null;
  owner_id: string;
  sys_org_code: string | null;
  enabled: number;
  remark: string | null;
  location: string | null;
  status: string;
  ip: string | null;
  last_seen_at: number | null;
  last_connect_at: number | null;
  last_disconnect_at: number | null;
  disconnect_reason: string | null;
  /**
   * The server node whose embedded broker holds the connection; null when none does. Written by
   * the MQTT gateway only, so the rows other modules build leave it out.
   */
  node_id?: string | null;
  /**
   * The restart the platform expects of the device (reboot | upgrade | config) and its window;
   * written by the gateway only.
   */
  restart_kind?: string | null;
  restart_from?: number | null;
  restart_until?: number | null;
  /**
   * Base data (issue 20): what the device is, where and whose; null when not set. Optional so
   * that rows built by modules that do not set them leave them out.
   */
  goods_id?: string | null;
  location_id?: string | null;
  vendor_id?: string | null;
  create_by: string | null;
  create_time: number;
  update_time: number | null;
}

/** Device counts per combination of the filterable columns; '' stands for NULL. Trigger-kept. */
export interface DeviceStatsTable {
  company_id: string;
  token_id: string;
  owner_id: string;
  sys_org_code: string;
  group_id: string;
  series: string;
  status: string;
  version: string;
  n: number;
}

export interface DeviceLogTable {
  id: string;
  company_id: string;
  device_id: string | null;
  sn: string | null;
  request_url: string;
  source_user: string | null;
  target_user: string | null;
  subject: string;
  content: string;
  source_ip: string | null;
  log_time: number;
  state: string;
}

export interface SysAnnouncementTable {
  id: string;
  company_id: string;
  titile: string;
  msg_content: string;
  priority: string;
  msg_category: string;
  msg_type: string;
  /** Ids of the chosen users, departments or roles, comma-separated; empty for everyone. */
  audience_ids: string;
  open_type: string | null;
  open_page: string | null;
  bus_id: string | null;
  start_time: number | null;
  end_time: number | null;
  send_status: string;
  sender: string | null;
  send_time: number | null;
  cancel_time: number | null;
  del_flag: number;
  create_by: string | null;
  create_time: number;
  update_time: number | null;
  /** A system message's code (`device.offline`); null for announcements people write. */
  msg_code: string | null;
  /** JSON parameters of `msg_code`, rendered in the reader's language. */
  msg_params: string | null;
}

export interface SysAnnouncementSendTable {
  id: string;
  company_id: string;
  annt_id: string;
  user_id: string;
  read_flag: number;
  read_time: number | null;
  create_time: number;
}

export interface SysVerifyCodeTable {
  id: string;
  /** register | login | reset */
  purpose: string;
  /** Normalized email or phone number the code was sent to. */
  target: string;
  code_hash: string;
  attempts: number;
  ip: string | null;
  create_time: number;
  expire_time: number;
  used_time: number | null;
}

export interface SysCheckRuleTable {
  id: string;
  rule_code: string;
  rule_name: string;
  rule_description: string | null;
  /** JSON array of { pattern, message, messageEn }. */
  rule_json: string;
  create_time: number;
  update_time: number | null;
}

export interface SysSettingTable {
  setting_key: string;
  setting_value: string;
  update_time: number;
}

/** One telemetry sample; `values_json` is the sample's values object. */
export interface DeviceTelemetryTable {
  device_id: string;
  ts: number;
  received_at: number;
  values_json: string;
}

/** The latest value of every key of one device: `{"key":[value, ts], ...}`. */
export interface DeviceTelemetryLatestTable {
  device_id: string;
  values_json: string;
  /** Writes so far: a writer stores its merge only over the version it read. */
  version: number;
  update_time: number;
}

export interface DeviceEventTable {
  id: string;
  company_id: string;
  device_id: string;
  sn: string;
  ts: number;
  level: string;
  code: string;
  message: string;
  source: string;
  received_at: number;
}

/** One device connection; open while `disconnected_at` is null. */
export interface DeviceSessionTable {
  id: string;
  company_id: string;
  device_id: string;
  connected_at: number;
  disconnected_at: number | null;
  reason: string | null;
  ip: string | null;
  node_id: string | null;
}

/** An SN an operator deleted from a token: auto-registration refuses it until it is allowed. */
export interface DeviceRemovedSnTable {
  token_id: string;
  sn: string;
  company_id: string;
  removed_by: string | null;
  removed_at: number;
}

/** A server node running an embedded broker, and when it last said it was alive. */
export interface GatewayNodeTable {
  id: string;
  seen_at: number;
}

export interface DeviceConfigTable {
  device_id: string;
  company_id: string;
  desired_version: number;
  desired_json: string | null;
  desired_by: string | null;
  desired_at: number | null;
  reported_version: number | null;
  reported_json: string | null;
  reported_at: number | null;
  state: string;
  /** Why the desired version failed: `device-refused` or `no-answer`. */
  error_code: string | null;
  /** The failure's parameter: the device's reason, or the seconds a `no-answer` waited. */
  error: string | null;
  sent_at: number | null;
  /** When a push sent to an online device fails unanswered (`no-answer`). */
  deadline: number | null;
  log_id: string | null;
  campaign_id: string | null;
}

export interface DeviceConfigVersionTable {
  device_id: string;
  version: number;
  company_id: string;
  config_json: string;
  /** JSON array of dotted paths. */
  changed_paths: string;
  changed_by: string | null;
  campaign_id: string | null;
  create_time: number;
}

export interface DeviceCommandTable {
  id: string;
  company_id: string;
  device_id: string;
  sn: string;
  method: string;
  params_json: string | null;
  timeout_sec: number;
  state: string;
  result_json: string | null;
  error: string | null;
  create_by: string | null;
  create_time: number;
  deadline: number;
  reply_time: number | null;
  log_id: string | null;
  /** An answer that came after the timeout: `{ok, result, error, at}`. */
  late_reply_json: string | null;
}

/** A file of a company's file library; its bytes are in the BlobStore under `oss/{id}`. */
export interface SysOssFileTable {
  id: string;
  company_id: string;
  name: string;
  size: number;
  content_type: string;
  sha256: string;
  create_by: string | null;
  create_time: number;
}

export interface FirmwareTable {
  id: string;
  company_id: string;
  series: string;
  version: string;
  file_name: string;
  size: number;
  sha256: string;
  release_notes: string | null;
  create_by: string | null;
  create_time: number;
}

export interface CampaignTable {
  id: string;
  company_id: string;
  name: string;
  kind: string;
  firmware_id: string | null;
  firmware_version: string | null;
  series: string | null;
  config_patch_json: string | null;
  target_json: string;
  waves_json: string;
  max_concurrent: number;
  failure_threshold: number;
  window_json: string | null;
  jitter_sec: number;
  soak_minutes: number;
  /** 0/1 */
  approve_each_wave: number;
  wave_deadline_minutes: number | null;
  wave_deadline_action: string;
  start_at: number | null;
  state: string;
  paused_reason: string | null;
  current_wave: number;
  wave_start_time: number | null;
  gate: string | null;
  gate_until: number | null;
  approved_wave: number;
  accepted_wave: number;
  released_wave: number;
  threshold_wave: number | null;
  total: number;
  create_by: string | null;
  create_time: number;
  end_time: number | null;
}

export interface CampaignDeviceTable {
  campaign_id: string;
  device_id: string;
  company_id: string;
  sn: string;
  wave: number;
  state: string;
  progress: number | null;
  from_version: string | null;
  error: string | null;
  attempts: number;
  job_id: string | null;
  not_before: number | null;
  deadline: number | null;
  log_id: string | null;
  update_time: number;
}

/** A company's alarm rule (issue 19); `condition`, `quiet_hours` and `notify` are JSON. */
export interface AlarmRuleTable {
  id: string;
  company_id: string;
  name: string;
  enabled: number;
  severity: string;
  /** all | series | group | device, and the series, group id or device id ('' for all). */
  scope_kind: string;
  scope_value: string;
  condition_type: string;
  condition: string;
  message_zh: string;
  message_en: string;
  quiet_hours: string | null;
  reminder_minutes: number | null;
  notify: string;
  description: string | null;
  create_by: string;
  create_time: number;
  update_time: number | null;
}

/**
 * An alarm: one open row per rule and device, kept unique by `open_key` (`{rule}:{device}` while
 * not cleared, NULL once cleared).
 */
export interface AlarmTable {
  id: string;
  company_id: string;
  rule_id: string | null;
  rule_name: string;
  condition_type: string;
  severity: string;
  state: string;
  device_id: string;
  sn: string;
  device_name: string;
  group_id: string | null;
  message_zh: string;
  message_en: string;
  value: number | null;
  count: number;
  first_time: number;
  last_time: number;
  ack_by: string | null;
  ack_time: number | null;
  ack_comment: string | null;
  clear_by: string | null;
  clear_time: number | null;
  clear_comment: string | null;
  clear_reason: string | null;
  open_key: string | null;
  /** Id of the last trigger counted: the same trigger delivered twice counts once. */
  last_trigger: string | null;
  /** When the next notification (held by quiet hours, or a reminder) is due; null: none. */
  next_notify_time: number | null;
  /** Notifications sent for it (the raise, then reminders). */
  notified: number;
}

export interface Database {
  sys_company: SysCompanyTable;
  sys_user: SysUserTable;
  sys_user_company: SysUserCompanyTable;
  sys_role: SysRoleTable;
  sys_user_role: SysUserRoleTable;
  sys_permission: SysPermissionTable;
  sys_role_permission: SysRolePermissionTable;
  sys_permission_data_rule: SysPermissionDataRuleTable;
  sys_depart: SysDepartTable;
  sys_user_depart: SysUserDepartTable;
  sys_depart_permission: SysDepartPermissionTable;
  sys_depart_role: SysDepartRoleTable;
  sys_depart_role_user: SysDepartRoleUserTable;
  sys_depart_role_permission: SysDepartRolePermissionTable;
  sys_position: SysPositionTable;
  sys_user_position: SysUserPositionTable;
  sys_dict: SysDictTable;
  sys_dict_item: SysDictItemTable;
  sys_session: SysSessionTable;
  sys_api_key: SysApiKeyTable;
  sys_captcha: SysCaptchaTable;
  sys_login_failure: SysLoginFailureTable;
  sys_user_two_factor: SysUserTwoFactorTable;
  sys_two_factor_recovery: SysTwoFactorRecoveryTable;
  sys_login_challenge: SysLoginChallengeTable;
  sys_log: SysLogTable;
  device_token: DeviceTokenTable;
  device_group: DeviceGroupTable;
  device: DeviceTable;
  device_stats: DeviceStatsTable;
  device_log: DeviceLogTable;
  sys_announcement: SysAnnouncementTable;
  sys_announcement_send: SysAnnouncementSendTable;
  sys_verify_code: SysVerifyCodeTable;
  sys_check_rule: SysCheckRuleTable;
  sys_setting: SysSettingTable;
  gateway_node: GatewayNodeTable;
  device_session: DeviceSessionTable;
  device_removed_sn: DeviceRemovedSnTable;
  device_telemetry: DeviceTelemetryTable;
  device_telemetry_latest: DeviceTelemetryLatestTable;
  device_event: DeviceEventTable;
  device_config: DeviceConfigTable;
  device_config_version: DeviceConfigVersionTable;
  device_command: DeviceCommandTable;
  firmware: FirmwareTable;
  campaign: CampaignTable;
  campaign_device: CampaignDeviceTable;
  sys_sso_state: SysSsoStateTable;
  sys_sso_ticket: SysSsoTicketTable;
  sys_job: SysJobTable;
  sys_job_run: SysJobRunTable;
  sys_quartz_job: SysQuartzJobTable;
  sys_quartz_job_run: SysQuartzJobRunTable;
  sys_oss_file: SysOssFileTable;
  sys_message_template: SysMessageTemplateTable;
  sys_message: SysMessageTable;
  sys_message_webhook: SysMessageWebhookTable;
  alarm_rule: AlarmRuleTable;
  alarm: AlarmTable;
  online_form: OnlineFormTable;
  online_form_record: OnlineFormRecordTable;
  online_form_value: OnlineFormValueTable;
  online_form_history: OnlineFormHistoryTable;
  device_tag: DeviceTagTable;
  base_goods: BaseGoodsTable;
  base_location: BaseLocationTable;
  base_vendor: BaseVendorTable;
}

/** A pending OpenID Connect sign-in; spent by its callback. */
export interface SysSsoStateTable {
  state: string;
  code_verifier: string;
  nonce: string;
  redirect_uri: string;
  expire_time: number;
}

/** A CAS ticket already validated (SHA-256 of it), kept until it could no longer be valid. */
export interface SysSsoTicketTable {
  ticket_hash: string;
  expire_time: number;
}

/** Tables whose rows belong to one company; queried only through `scoped()`. */
export type TenantTable = {
  [T in keyof Database]: Database[T] extends { company_id: string | null } ? T : never;
}[keyof Database];

/** A job run on one node of the cluster at a time: its lease, its run in progress, its last run. */
export interface SysJobTable {
  name: string;
  lease_node: string | null;
  lease_until: number;
  running_since: number | null;
  last_start: number | null;
  last_end: number | null;
  /** `ok` or `failed`. */
  last_outcome: string | null;
  last_error: string | null;
  last_node: string | null;
  runs: number;
  failures: number;
  /** 1 while an administrator has paused the job: no node takes its lease. */
  paused: number;
}

/** A run of a scheduled job worth keeping: a failure, or any run of a job run at most once a minute. */
export interface SysJobRunTable {
  id: string;
  job_name: string;
  node: string;
  start_time: number;
  end_time: number;
  /** `ok` or `failed`. */
  outcome: string;
  error: string | null;
}

/** A scheduled job a company's user made (see migration 20261127100200-quartz-jobs). */
export interface SysQuartzJobTable {
  id: string;
  company_id: string;
  name: string;
  /** One of QUARTZ_JOB_TYPES. */
  job_type: string;
  cron: string;
  time_zone: string;
  params_json: string;
  description: string | null;
  /** `normal` or `paused`. */
  status: string;
  /** The next occurrence; null while paused. */
  next_run_time: number | null;
  /** A run in progress holds the job until then (0: none). */
  run_until: number;
  last_start: number | null;
  last_end: number | null;
  last_outcome: string | null;
  last_message: string | null;
  create_by: string;
  /** The user the job acts as: whoever saved it last. */
  run_as_id: string;
  run_as: string;
  create_time: number;
  update_by: string | null;
  update_time: number | null;
}

/** A run of an operator job: when, how it ended and what it did to devices. */
export interface SysQuartzJobRunTable {
  id: string;
  job_id: string;
  company_id: string;
  /** `schedule` or `manual`. */
  trigger_kind: string;
  scheduled_time: number | null;
  start_time: number;
  end_time: number;
  /** One of QUARTZ_RUN_OUTCOMES. */
  outcome: string;
  message: string | null;
  counts_json: string | null;
  run_by: string | null;
}

/** A message template (issue 18); the platform company's are the defaults of every company. */
export interface SysMessageTemplateTable {
  id: string;
  company_id: string;
  code: string;
  name: string;
  /** `system`, `email`, `sms` or `webhook`. */
  channel: string;
  subject: string;
  subject_en: string;
  content: string;
  content_en: string;
  /** JSON object: variable name → sample value. */
  test_data: string;
  enabled: number;
  built_in: number;
  create_by: string | null;
  create_time: number;
  update_time: number | null;
}

/** One message to one receiver through one channel: the delivery queue and its history. */
export interface SysMessageTable {
  id: string;
  company_id: string;
  template_code: string | null;
  channel: string;
  receiver_id: string | null;
  receiver: string;
  title: string;
  content: string;
  /** JSON: what the channel needs besides the texts (see message-delivery.service.ts). */
  extra: string | null;
  /** `queued`, `sent` or `failed`. */
  status: string;
  attempts: number;
  next_attempt_time: number | null;
  expire_time: number | null;
  last_error: string | null;
  create_by: string | null;
  create_time: number;
  send_time: number | null;
}

/** A company's webhook endpoint; `secret` signs its deliveries (HMAC-SHA256). */
export interface SysMessageWebhookTable {
  id: string;
  company_id: string;
  name: string;
  url: string;
  secret: string;
  enabled: number;
  create_by: string | null;
  create_time: number;
  update_time: number | null;
}

/** A free tag on a device (issue 20); `company_id` is the device's. */
export interface DeviceTagTable {
  device_id: string;
  company_id: string;
  tag: string;
}

/** Goods (issue 20, 基础数据 → 物料): a series' model and hardware revision. */
export interface BaseGoodsTable {
  id: string;
  company_id: string;
  series: string;
  model: string;
  hw_revision: string;
  description: string | null;
  /** A file of the file library (`sys_oss_file`); null when none. */
  datasheet_file_id: string | null;
  enabled: number;
  create_by: string | null;
  create_time: number;
  update_time: number | null;
}

/** A location (issue 20): region → site → cabinet, in one tree per company. */
export interface BaseLocationTable {
  id: string;
  company_id: string;
  parent_id: string | null;
  kind: string;
  name: string;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  contact_name: string | null;
  contact_phone: string | null;
  sort_no: number | null;
  create_by: string | null;
  create_time: number;
  update_time: number | null;
}

/** A vendor (issue 20): supplier, installer, carrier or maintainer; dates are YYYY-MM-DD. */
export interface BaseVendorTable {
  id: string;
  company_id: string;
  name: string;
  kind: string;
  contact_name: string | null;
  contact_phone: string | null;
  contact_email: string | null;
  contract_no: string | null;
  contract_start: string | null;
  contract_end: string | null;
  warranty_end: string | null;
  remark: string | null;
  create_by: string | null;
  create_time: number;
  update_time: number | null;
}

/** An online form's definition (issue 20); `fields` is JSON checked against ZOnlineField. */
export interface OnlineFormTable {
  id: string;
  company_id: string;
  code: string;
  name: string;
  name_en: string | null;
  description: string | null;
  fields: string;
  status: string;
  version: number;
  record_count: number;
  create_by: string | null;
  create_time: number;
  update_by: string | null;
  update_time: number | null;
  publish_time: number | null;
}

/** A record of an online form: its values as JSON. */
export interface OnlineFormRecordTable {
  id: string;
  form_id: string;
  company_id: string;
  data: string;
  create_by: string | null;
  create_time: number;
  update_by: string | null;
  update_time: number | null;
}

/** A record's value of one searched, sorted or unique field, typed for the indexes. */
export interface OnlineFormValueTable {
  record_id: string;
  form_id: string;
  field_key: string;
  value_text: string | null;
  value_num: number | null;
  unique_key: string | null;
}

/** Who changed which values of a record, and when. */
export interface OnlineFormHistoryTable {
  id: string;
  form_id: string;
  record_id: string;
  action: string;
  changes: string;
  create_by: string | null;
  create_time: number;
}
