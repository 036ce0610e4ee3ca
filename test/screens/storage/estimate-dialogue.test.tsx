import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXAMPLE_CATALOGUE_FILE, loadCatalogue } from '../../../src/storage/catalogue.js';
import { KEYS } from '../../helpers/screens/screen.js';
import { seedCluster } from '../../helpers/objects/seed-storage.js';
import { expectFits, fakeStorage, openDialogue, openStorage, RIGHT, toSizes } from './fake-storage.js';

afterEach(() => cleanup());

describe('the Storage tab: the estimate dialogue', () => {
  it("gives the seed's totals and verdict for its inputs: vg_data 93.1/87.1 GB free, vg_share 106.9/0 GB, KloudInsights with 10/10/10/2/2", async () => {
    const fake = fakeStorage({ 'kind-cp': () => seedCluster() });
    const onQuit = vi.fn();
    const screen = await openStorage(fake, onQuit);
    await screen.waitFor('vg_data');

    // The features, defaults from the catalogue
    await screen.press(KEYS.enter);
    const features = await screen.waitFor('Storage estimate · 1/3 Features · kind-cp');
    expectFits(features);
    expect(features).toContain('What features do you want to use');
    expect(features).toMatch(/◯ Enable KloudManage\s+No /);
    expect(features).toMatch(/◉ Enable KloudInsights\s+Yes\s+5 volumes: 20 GB shared, 14 GB unshared/);
    expect(features).toMatch(/◯ Enable Kloudhybrid\s+No /);
    expect(features).toContain('Required: Shared 20 GB, Unshared 14 GB');
    expect(features).not.toContain('enter estimate');

    // The pools, chosen as the seed does, with the reason and what is available
    await screen.press(KEYS.enter);
    const pools = await screen.waitFor('2/3 Pools');
    expectFits(pools);
    expect(pools).toContain('Using vg_data for unshared volumes');
    expect(pools).toMatch(/Shared volumes\s+‹ vg_share ›/);
    expect(pools).toMatch(/Unshared volumes\s+‹ vg_data ›/);
    expect(pools).toContain('Available: Shared 106 GB, Unshared 87 GB');

    // The sizes, typed as in the seed (q is text here: nothing quits)
    await screen.press(KEYS.enter);
    await screen.waitFor('How much storage do you want to assign to each volume');
    for (const size of ['10', '10', '10', '2', '2']) await screen.press(...size, KEYS.down);
    const sizes = await screen.waitFor('Required: Shared 20 GB, Unshared 14 GB');
    expectFits(sizes);
    expect(sizes).toMatch(/Stream processing elasticsearch \(GB\)\s+: 10\s+shared/);
    expect(sizes).toMatch(/Stream processing state storage \(GB\)\s+: 10\s+shared/);
    expect(sizes).toMatch(/Kloudinsights database \(GB\)\s+: 10\s+unshared/);
    expect(sizes).toMatch(/Kafka distributed messaging \(GB\)\s+: 2\s+unshared/);
    expect(sizes).toMatch(/Zookeeper coordinator \(GB\)\s+: 2/);
    expect(sizes).toContain("Available: Shared 106 GB, Unshared 87 GB (the smallest node's)");
    expect(sizes).toContain('√ The configuration looks OK');
    expect(sizes).toContain('Remember each node needs this amount of storage');
    expect(sizes).toMatch(/node-a\s+106 GB\s+87 GB\s+√/);
    expect(onQuit).not.toHaveBeenCalled();

    // Enter on the last size confirms: back on the inventory, with the estimate under it
    await screen.press(KEYS.enter);
    const back = await screen.waitFor('Estimate: required Shared 20 GB, Unshared 14 GB · The configuration looks OK');
    expectFits(back);
    expect(back).toContain('vg_data');
  });

  it('toggling a feature and typing a size update the totals and the verdict live', async () => {
    const fake = fakeStorage({ 'kind-cp': () => seedCluster() });
    const screen = await openDialogue(fake);

    // When Kloudhybrid is enabled too, its 20 GB unshared add up at once
    await screen.press(KEYS.down, KEYS.down, ' ');
    await screen.waitFor('Required: Shared 20 GB, Unshared 34 GB');
    // And without KloudInsights it is the seed's second dialogue
    await screen.press(KEYS.up, ' ');
    const hybrid = await screen.waitFor('Required: Shared 0 GB, Unshared 20 GB');
    expect(hybrid).toMatch(/◯ Enable KloudInsights\s+No/);
    expect(hybrid).toContain('The configuration looks OK');
    await screen.press(' ', KEYS.down, ' ');
    await screen.waitFor('Required: Shared 20 GB, Unshared 14 GB');

    // When Kafka gets 50 GB, the total follows each key
    await screen.press(KEYS.enter);
    await screen.waitFor('2/3 Pools');
    await screen.press(KEYS.enter);
    await screen.waitFor('3/3 Sizes');
    await screen.press(KEYS.down, KEYS.down, KEYS.down, '5');
    await screen.waitFor('Required: Shared 20 GB, Unshared 17 GB');
    await screen.press('0');
    const fifty = await screen.waitFor('Required: Shared 20 GB, Unshared 62 GB');
    expect(fifty).toMatch(/Kafka distributed messaging \(GB\)\s+: 50/);
    expect(fifty).toContain('The configuration looks OK');

    // And a size that is not one is one line, not accepted: the last valid size counts
    await screen.press(KEYS.backspace, KEYS.backspace, '-', '3');
    const bad = await screen.waitFor('Kafka distributed messaging: "-3" is not a number of GB above 0 (5 GB counts)');
    expectFits(bad);
    expect(bad).toContain('Required: Shared 20 GB, Unshared 17 GB');
    // Enter on the last size does not close while a size is not accepted: it goes to that field
    await screen.press(KEYS.down, KEYS.enter);
    expect(screen.frame()).toContain('3/3 Sizes');
    await screen.press('4');
    await screen.waitFor('Required: Shared 20 GB, Unshared 16 GB');
    expect(screen.frame()).not.toContain('is not a number');
  });

  it('a size too large for the nodes shows the exact shortfall and which nodes lack it', async () => {
    // Given node-c has only 20 GB free in vg_data
    const fake = fakeStorage({ 'kind-cp': () => seedCluster(20) });
    const screen = await openStorage(fake);
    await screen.waitFor('vg_data');
    await toSizes(screen);
    await screen.waitFor('The configuration looks OK');

    // When the database gets 100 GB
    await screen.press(KEYS.down, KEYS.down, '1', '0', '0');
    const short = await screen.waitFor('Required: Shared 20 GB, Unshared 104 GB');
    expectFits(short);
    expect(short).toContain("Available: Shared 106 GB, Unshared 20 GB (the smallest node's)");
    expect(short.replace(/\n/g, ' ')).toContain('✗ Not enough storage: Unshared 84 GB short on node-c, 17 GB short on node-a, node-b');
    // The nodes that fall short first, with what each lacks
    expect(short).toMatch(/NODE\s+SHARED\s+UNSHARED/);
    expect(short).toMatch(/node-c\s+106 GB\s+20 GB\s+✗ short 84 GB unshared/);
    expect(short).toMatch(/node-a\s+106 GB\s+87 GB\s+✗ short 17 GB unshared/);
    expect(short.indexOf('node-c')).toBeLessThan(short.indexOf('node-a'));
    expect(short).toContain('Remember each node needs this amount of storage');

    // And a shared volume too large for vg_share adds the shared shortfall on every node
    await screen.press(KEYS.up, KEYS.up, '2', '0', '0');
    const both = await screen.waitFor('Required: Shared 210 GB, Unshared 104 GB');
    expect(both.replace(/\n/g, ' ')).toContain('Shared 104 GB short on every node');
  });

  it('changing a pool changes what is available; Esc goes back a page, then closes, keeping the choices', async () => {
    const fake = fakeStorage({ 'kind-cp': () => seedCluster() });
    const screen = await openDialogue(fake);
    await screen.press(KEYS.enter);
    await screen.waitFor('2/3 Pools');

    // When the unshared pool becomes vg_share, the shared one swaps to vg_data
    await screen.press(KEYS.down, RIGHT);
    const swapped = await screen.waitFor(/Unshared volumes\s+‹ vg_share ›/);
    expect(swapped).toMatch(/Shared volumes\s+‹ vg_data ›/);
    expect(swapped).toContain('Available: Shared 93 GB, Unshared 0 GB');
    expect(swapped).toContain('Not enough storage');
    await screen.press('\u001B[D');
    await screen.waitFor('Available: Shared 106 GB, Unshared 87 GB');

    // Esc: a page back, then closed (the app's keys work again)
    await screen.press(KEYS.esc);
    await screen.waitFor('1/3 Features');
    await screen.press(KEYS.esc);
    await screen.waitFor('enter estimate');
    expect(screen.frame()).toContain('Estimate: required Shared 20 GB, Unshared 14 GB');

    // And reopening starts where it was left
    await screen.press('e');
    await screen.waitFor('1/3 Features');
  });

  it('offers the other catalogues with c (the default one first)', async () => {
    const fake = fakeStorage({ 'kind-cp': () => seedCluster() }, { files: [EXAMPLE_CATALOGUE_FILE], load: (file) => loadCatalogue(file) });
    const screen = await openStorage(fake);
    await screen.waitFor('vg_data');
    await screen.press(KEYS.enter);
    const control = await screen.waitFor('Catalogue: nova-control-plane');
    expect(control).toMatch(/◉ Enable Nova control plane\s+Yes\s+1 volume: 8 GB unshared/);
    expect(control).toContain('Required: Shared 0 GB, Unshared 8 GB');
    await screen.press('c');
    await screen.waitFor('Catalogue: kloudspot-example');
    await screen.waitFor('Required: Shared 20 GB, Unshared 14 GB');
  });
});
