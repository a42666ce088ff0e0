import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { boundaries } from './eslint-rules/boundaries.js';
import { tenancy } from './eslint-rules/tenant-scoped.js';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'coverage/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // `interface MessageCatalogue extends DeviceMessages {}` is how a module adds its messages.
      '@typescript-eslint/no-empty-object-type': [
        'error',
        { allowInterfaces: 'with-single-extends' },
      ],
    },
  },
  {
    files: ['packages/contracts/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!zod$|\\.)', message: 'contracts depend on zod only' }] },
      ],
    },
  },
  {
    // Type-aware rules where promises and unions carry the logic: a promise nobody awaits loses its
    // error, a promise passed where a callback returning nothing is expected is never awaited, and
    // a switch over a union must handle every member.
    files: ['server/src/**/*.ts'],
    languageOptions: {
      parserOptions: {
        project: ['server/tsconfig.test.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
    },
  },
  {
    files: ['server/src/modules/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/*.repository.js', 'kysely'],
              message: 'routes call their service; SQL lives in repositories',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/src/modules/**/*.service.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./[^/]+/.*\\.repository\\.js$',
              message: "a service uses its own repository and other modules' services",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/src/modules/**/*'],
    plugins: { boundaries },
    rules: { 'boundaries/module-file-kinds': 'error' },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, boundaries },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'boundaries/feature-isolation': [
        'error',
        {
          allow: [
            { from: 'device', to: 'device-config', why: 'device pages show its configuration' },
            { from: 'device', to: 'device-command', why: 'the device page shows its commands' },
            { from: 'device', to: 'alarm', why: 'the device page shows its alarms' },
            {
              from: 'dashboard',
              to: 'alarm',
              why: 'the dashboard shows the open alarms by severity',
            },
            {
              from: 'device-config',
              to: 'campaign',
              why: 'a bulk configuration change is rolled out as a campaign',
            },
          ],
        },
      ],
    },
  },
  {
    // Tenant isolation (docs/architecture.md): a query on a company-owned table starts from the
    // company-scoped handle, `scoped(db, companyId)`. The repositories and methods below cross
    // companies on purpose; each says why.
    files: ['server/src/**/*.repository.ts'],
    plugins: { tenancy },
    rules: {
      'tenancy/scoped-queries': [
        'error',
        {
          schema: 'server/src/platform/db/schema.ts',
          // A subquery on the expression builder is correlated to the rows of its outer query.
          ignoreReceivers: ['eb'],
          allow: [
            {
              class: 'SessionRepository',
              reason: 'a session is found by its token before any company is known',
            },
            {
              class: 'AuthRepository',
              reason: 'sign-in finds the user before any company is chosen',
            },
            { class: 'TwoFactorRepository', reason: 'the second factor is checked at sign-in' },
            {
              class: 'CompanyRepository',
              reason: 'platform administration of the companies themselves',
            },
            {
              class: 'UserRepository',
              reason:
                'accounts are global: login fields are unique across companies, a user is a member of several, and platform administrators manage every company',
            },
            {
              class: 'ApiKeyRepository',
              methods: [
                'forAuthentication',
                'isMember',
                'listOfUser',
                'listOfEveryCompany',
                'byId',
                'revokeIfUserInactive',
              ],
              reason:
                "a key is found by its id at authentication, with its user's membership; a user lists and revokes their keys of every company, a platform administrator those of every company; freezing or deleting a user revokes their keys everywhere",
            },
            {
              class: 'MessageQueueRepository',
              reason:
                'the delivery job sends the queued messages of every company; each row carries its company, and what an attempt reads for it is read in that company',
            },
            {
              class: 'ScheduledJobRepository',
              methods: ['due'],
              reason:
                'one leader finds the due jobs of every company; each is then claimed and run in its own company',
            },
            {
              class: 'MonitorRepository',
              methods: ['deviceCountsByStatus', 'campaignCountsByState'],
              reason:
                'the system monitor and /metrics count devices and campaigns platform-wide (totals only, for platform administrators and the scraper)',
            },
            {
              file: 'server/src/modules/device-gateway/gateway.repository.ts',
              reason: 'the MQTT gateway serves the devices of every company',
            },
            {
              class: 'DeviceDataRepository',
              methods: ['writeRows', 'existingDeviceIds', 'deleteEventsReceivedBefore'],
              reason:
                'telemetry arrives through the gateway for every company; retention is platform-wide',
            },
            {
              class: 'CampaignRepository',
              methods: [
                'unfinished',
                'find',
                'setState',
                'release',
                'counts',
                'queued',
                'failOffline',
                'expired',
                'move',
                'byJob',
                'openRowsOfDevices',
                'withCampaignLocked',
                'candidates',
                'delay',
                'claim',
                'setLogIds',
              ],
              reason:
                "the campaign engine's background work moves the devices of every company; its progress counts read campaigns by id in index-only scans",
            },
            {
              class: 'DepartRepository',
              methods: ['topLevelCodes', 'companyUsers'],
              reason:
                "org codes are unique across companies; a company's users include its members from other companies",
            },
            {
              class: 'AnnouncementRepository',
              methods: ['publish'],
              reason:
                "recipients are inserted from a select of the company's members, stamped with its id",
            },
            {
              class: 'LogRepository',
              methods: ['insert', 'lastLoginsOf'],
              reason:
                'sign-ins and platform actions are logged with no company or across companies',
            },
            {
              class: 'DeviceLogRepository',
              methods: ['insert', 'setState'],
              reason:
                "auto-registration logs devices of several companies in one batch; states follow the server's own writes by id",
            },
            {
              class: 'TokenRepository',
              methods: ['codeExists'],
              reason: 'token codes are unique across companies',
            },
            {
              class: 'FirmwareRepository',
              methods: ['findForDownload'],
              reason: 'downloads are authorised by their signed URL, not by a session',
            },
            {
              class: 'DeviceCommandRepository',
              methods: ['expired', 'waitingFor'],
              reason: 'the timeout sweep and online devices span every company',
            },
            {
              class: 'DeviceConfigRepository',
              methods: ['unanswered', 'pendingAmong', 'findAmong', 'seriesAmong', 'writeReports'],
              reason:
                'the deadline sweep and online devices span every company; the boot reports arriving together are written together, each row with its own company',
            },
            {
              class: 'AlarmRepository',
              methods: [
                'enabledRules',
                'openKeys',
                'clearDevices',
                'offlineBackOnline',
                'dueNotifications',
              ],
              reason:
                "every node evaluates every company's rules and knows its open alarms; deleted devices are named by id alone; the offline and notification jobs serve every company, each row carrying its own",
            },
            {
              class: 'ConnectionRepository',
              methods: ['deleteEndedBefore'],
              reason: 'connection retention is platform-wide',
            },
            // sys_permission is the shared menu catalogue (company_id null) plus each company's
            // online-form rows: these readers filter on `company_id is null or = ?` themselves,
            // which `scoped()` (equality only) cannot express.
            {
              file: 'server/src/platform/auth/permission.repository.ts',
              reason:
                'the catalogue is loaded once; PermissionService.catalogue(companyId) filters it',
            },
            {
              file: 'server/src/modules/permission/permission-admin.repository.ts',
              reason:
                'platform administrators edit the shared rows; the grant tree adds the caller company’s',
            },
            {
              class: 'RoleRepository',
              methods: ['permsOf', 'livePermissionIds'],
              reason:
                'catalogue rows are shared; livePermissionIds keeps the shared and the company’s own',
            },
            {
              class: 'DataRuleRepository',
              methods: ['permissionIdsOf'],
              reason: 'data rules hang on shared catalogue rows',
            },
          ],
        },
      ],
    },
  },
);
