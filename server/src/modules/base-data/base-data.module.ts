import type { Platform, ServerModule } from '../../platform/module.js';
import type { OssFileService } from '../oss-file/oss-file.service.js';
import { baseDataMenu } from './base-data.menu.js';
import './base-data.messages.js';
import { GoodsRepository } from './goods.repository.js';
import { goodsRoutes } from './goods.routes.js';
import { GoodsService } from './goods.service.js';
import { LocationRepository } from './location.repository.js';
import { locationRoutes } from './location.routes.js';
import { LocationService } from './location.service.js';
import { VendorRepository } from './vendor.repository.js';
import { vendorRoutes } from './vendor.routes.js';
import { VendorService } from './vendor.service.js';

/**
 * Base data (基础数据): goods, locations and vendors of a company, which devices point at. The
 * datasheets of goods are files of the file library.
 */
export function baseDataModule({ db, clock }: Platform, deps: { ossFiles: OssFileService }) {
  const goods = new GoodsService(new GoodsRepository(db), deps.ossFiles, clock);
  const locations = new LocationService(new LocationRepository(db), clock);
  const vendors = new VendorService(new VendorRepository(db), clock);
  const module: ServerModule = {
    name: 'base-data',
    routes: [goodsRoutes(goods), locationRoutes(locations), vendorRoutes(vendors)],
    menu: baseDataMenu,
  };
  return { goods, locations, vendors, module };
}
