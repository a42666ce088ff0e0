import { RuleTester } from 'eslint';
import { afterAll, describe, it } from 'vitest';
import { boundaries } from './boundaries.js';

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;

const tester = new RuleTester();
const moduleFile = (name) => `/repo/server/src/modules/device/${name}`;
const feature = (name) => `/repo/web/src/features/${name}`;

tester.run('boundaries/module-file-kinds', boundaries.rules['module-file-kinds'], {
  valid: [
    'device.module.ts',
    'device.routes.ts',
    'operation-log.hook.ts',
    'device.service.ts',
    'device.repository.ts',
    'paging.rules.ts',
    'device.messages.ts',
    'device.menu.ts',
    'device.test.ts',
  ].map((name) => ({ code: '', filename: moduleFile(name) })),
  invalid: ['helpers.ts', 'device.engine.ts', 'device.ts'].map((name) => ({
    code: '',
    filename: moduleFile(name),
    errors: [{ messageId: 'kind' }],
  })),
});

const allow = [
  { allow: [{ from: 'device', to: 'device-config', why: 'shows its configuration' }] },
];

tester.run('boundaries/feature-isolation', boundaries.rules['feature-isolation'], {
  valid: [
    { code: "import x from './columns';", filename: feature('device/DeviceListPage.tsx') },
    { code: "import x from '../columns';", filename: feature('device/parts/Row.tsx') },
    {
      code: "import x from '../../shared/format';",
      filename: feature('device/DeviceListPage.tsx'),
    },
    {
      code: "import x from '../device-config/ConfigForm';",
      filename: feature('device/DeviceDetailPage.tsx'),
      options: allow,
    },
    // Outside the features the rule has nothing to say.
    {
      code: "import x from '../features/device/DeviceListPage';",
      filename: '/repo/web/src/app/App.tsx',
    },
  ],
  invalid: [
    {
      code: "import x from '../campaign/use-campaigns';",
      filename: feature('device-config/BulkConfigModal.tsx'),
      errors: [{ messageId: 'sibling', data: { from: 'device-config', to: 'campaign' } }],
    },
    {
      code: "export { x } from '../../features/campaign/use-campaigns';",
      filename: feature('device/DeviceListPage.tsx'),
      errors: [{ messageId: 'sibling' }],
    },
    {
      code: "const page = import('../device-command/Panel');",
      filename: feature('device/DeviceDetailPage.tsx'),
      options: allow,
      errors: [{ messageId: 'sibling' }],
    },
  ],
});
