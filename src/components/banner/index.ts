export { Banner, bannerLines, BANNER_MAX_LINES, type BannerKind, type BannerProps } from './banner.js';
