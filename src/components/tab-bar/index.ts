export { TabBar, type TabBarProps } from './tab-bar.js';
