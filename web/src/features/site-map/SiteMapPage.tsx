import { ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import {
  DEVICE_SERIES,
  SITE_HEALTH,
  SITE_MAP_MAX_SITES,
  ZSiteListQuery,
  type TSiteListQuery,
} from '@blrms/contracts';
import { Alert, Button, Card, Select, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { BaseMap } from '../../shared/map/BaseMap';
import { useMapTiles } from '../../shared/map/use-map-tiles';
import { Authorized } from '../../shared/permission/Authorized';
import { SiteLayer } from './SiteLayer';
import { SiteMapSettingsModal } from './SiteMapSettingsModal';
import { HEALTH_COLOURS } from './site-health';
import { useGroupOptions, useSites } from './use-site-map';
import './site-map.css';

/** The filters in the address (a bookmark or a reload keeps them); a bad value is dropped. */
function useFilters(): [TSiteListQuery, (next: TSiteListQuery) => void] {
  const [params, setParams] = useSearchParams();
  const groupId = params.get('groupId') ?? undefined;
  const series = params.get('series') ?? undefined;
  const query = useMemo(() => {
    const parsed = ZSiteListQuery.safeParse({ groupId, series });
    return parsed.success ? parsed.data : {};
  }, [groupId, series]);
  const set = (next: TSiteListQuery) => {
    const search = new URLSearchParams();
    if (next.groupId) search.set('groupId', next.groupId);
    if (next.series) search.set('series', next.series);
    setParams(search, { replace: true });
  };
  return [query, set];
}

/**
 * 站点地图 (issue 20): the company's sites on a map, coloured by their devices' health; a click
 * shows a site's counts and leads to its devices. Drawn on the platform's tile server when one is
 * set, otherwise on the shipped world outline (no internet tiles are assumed).
 */
export default function SiteMapPage() {
  const { t } = useTranslation();
  const [query, setQuery] = useFilters();
  const sites = useSites(query);
  const groups = useGroupOptions();
  const tiles = useMapTiles();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const list = sites.data?.sites;
  const devices = list?.reduce((sum, s) => sum + s.total, 0) ?? 0;
  const fitKey = `${query.groupId ?? ''}|${query.series ?? ''}|${sites.data ? 'loaded' : ''}`;

  return (
    <Card className="site-map-page" data-testid="site-map-page">
      <div className="site-map-page__toolbar">
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          className="site-map-page__filter"
          placeholder={t('siteMap.allGroups')}
          aria-label={t('siteMap.group')}
          value={query.groupId}
          loading={groups.isLoading}
          options={groups.data?.map((g) => ({ value: g.id, label: g.name }))}
          onChange={(groupId?: string) => setQuery({ ...query, groupId })}
          data-testid="site-map-group"
        />
        <Select
          allowClear
          className="site-map-page__filter"
          placeholder={t('siteMap.allSeries')}
          aria-label={t('siteMap.series')}
          value={query.series}
          options={DEVICE_SERIES.map((s) => ({ value: s, label: s }))}
          onChange={(series?: TSiteListQuery['series']) => setQuery({ ...query, series })}
          data-testid="site-map-series"
        />
        <Space wrap>
          <Button
            icon={<ReloadOutlined />}
            loading={sites.isFetching}
            onClick={() => void sites.refetch()}
            data-testid="site-map-refresh"
          >
            {t('siteMap.refresh')}
          </Button>
          <Authorized action="base:sites:settings">
            <Button
              icon={<SettingOutlined />}
              onClick={() => setSettingsOpen(true)}
              data-testid="site-map-settings"
            >
              {t('siteMap.settings')}
            </Button>
          </Authorized>
        </Space>
      </div>
      <div className="site-map-page__status">
        {list && (
          <Typography.Text type="secondary" data-testid="site-map-summary">
            {t('siteMap.summary', { sites: list.length, devices })}
          </Typography.Text>
        )}
        <ul className="site-map-page__legend" data-testid="site-map-legend">
          {SITE_HEALTH.map((health) => (
            <li key={health}>
              <span
                className="site-map-page__swatch"
                style={{
                  background: HEALTH_COLOURS[health].fill,
                  borderColor: HEALTH_COLOURS[health].stroke,
                }}
              />
              {t(`siteMap.legend.${health}`)}
            </li>
          ))}
        </ul>
      </div>
      {sites.data && sites.data.unplaced > 0 && (
        <Alert
          type="info"
          showIcon
          className="site-map-page__note"
          message={t('siteMap.unplaced', { count: sites.data.unplaced })}
          data-testid="site-map-unplaced"
        />
      )}
      {sites.data?.truncated && (
        <Alert
          type="warning"
          showIcon
          className="site-map-page__note"
          message={t('siteMap.truncated', { max: SITE_MAP_MAX_SITES })}
        />
      )}
      <div className="site-map-page__map">
        <BaseMap tiles={tiles} testId="site-map">
          {(map) => list && <SiteLayer map={map} sites={list} fitKey={fitKey} />}
        </BaseMap>
        {list?.length === 0 && (
          <div className="site-map-page__empty" data-testid="site-map-empty">
            {t('siteMap.noSites')}
          </div>
        )}
      </div>
      <SiteMapSettingsModal
        open={settingsOpen}
        tiles={tiles}
        onClose={() => setSettingsOpen(false)}
      />
    </Card>
  );
}
