export { Banner, bannerLines, BANNER_MAX_LINES, type BannerProps } from './banner.js';
