import { DownloadOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import type { ReactNode } from 'react';
import { useState } from 'react';

/**
 * A list's export: a button whose menu offers the file formats, busy while the download is
 * prepared. Test ids are `{testId}` and `{testId}-{format}`.
 */
export function ExportButton<F extends string>({
  formats,
  label,
  formatLabel,
  onExport,
  testId,
}: {
  formats: readonly F[];
  label: ReactNode;
  formatLabel: (format: F) => ReactNode;
  /** Downloads the file; a failure is reported by the HTTP client. */
  onExport: (format: F) => Promise<void>;
  testId: string;
}) {
  const [exporting, setExporting] = useState(false);
  const run = async (format: F) => {
    setExporting(true);
    try {
      await onExport(format);
    } catch {
      // Reported by the HTTP client.
    } finally {
      setExporting(false);
    }
  };
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: formats.map((format) => ({
          key: format,
          label: <span data-testid={`${testId}-${format}`}>{formatLabel(format)}</span>,
        })),
        onClick: ({ key }) => {
          const format = formats.find((f) => f === key);
          if (format) void run(format);
        },
      }}
    >
      <Button icon={<DownloadOutlined />} loading={exporting} data-testid={testId}>
        {label}
      </Button>
    </Dropdown>
  );
}
