/** Dialogue 1 of the seed: how node nmsc02's volume groups and disks print (lsblk/vgs fixtures). */
export const SEED_NMSC02_LINES = [
  'Volume Groups:',
  '-  vg_data ( 93.1 GB - 87.1 GB free)',
  '   on /dev/sdb1',
  '-  vg_share ( 106.9 GB - 0.0 GB free)',
  '   on /dev/sdb2',
  'Total Free space: 87.1 GB',
  '',
  'Disks:',
  '/dev/sda (50G)',
  '  /dev/sda1 (1M)',
  '  /dev/sda2 (50G) mounted as /',
  '/dev/sdb (200G)',
  '  /dev/sdb1 (93.1G) in Volume Group vg_data',
  '  /dev/sdb2 (106.9G) in Volume Group vg_share',
  '    /dev/mapper/ubuntu--vg-shared (100G)',
];
