import { Alert, Button } from 'antd';
import type { ReactNode } from 'react';
import { Component } from 'react';
import { useTranslation } from 'react-i18next';

function PageError() {
  const { t } = useTranslation();
  return (
    // An Alert, not a Result: Result bundles its illustrations into the login route's entry.
    <Alert
      type="error"
      showIcon
      style={{ margin: 24 }}
      message={t('pageError.title')}
      description={t('pageError.subTitle')}
      action={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('pageError.reload')}
        </Button>
      }
      data-testid="page-error"
    />
  );
}

/**
 * A page that fails to render or whose chunk fails to load (typically after a new deployment)
 * shows a reload prompt instead of a blank screen.
 */
export class PageErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <PageError /> : this.props.children;
  }
}
