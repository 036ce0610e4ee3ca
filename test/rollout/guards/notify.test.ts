import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_TEMPLATES,
  messageFor,
  NOTIFY_QUEUE_MAX,
  Notifier,
  redactUrl,
  renderTemplate,
  validateNotifications,
} from '../../../src/rollout/guards/notify.js';
import type { Notifications } from '../../../src/rollout/guards/types.js';

/** A Slack-like incoming webhook: its secret is in the path. */
const SECRET = 'T0001/B0002/XyZsecretToken42';

interface Received {
  path: string;
  contentType: string | undefined;
  body: unknown;
}

let server: Server;
let base: string;
const received: Received[] = [];
/** The answer's status for each request (200 unless set). */
let status = 200;
/** Requests held unanswered until released (when holding). */
let holding = false;
const held: (() => void)[] = [];
/** Called when a request is held. */
let onHeld: () => void = () => {};

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      text += c;
    });
    req.on('end', () => {
      received.push({ path: req.url ?? '', contentType: req.headers['content-type'], body: JSON.parse(text) });
      const answer = () => {
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'invalid_token');
      };
      if (holding) {
        held.push(answer);
        onHeld();
      } else setImmediate(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received.length = 0;
  status = 200;
  holding = false;
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts the fetch calls not yet settled, and the most at once. */
function countFetches(): { most: number } {
  const real = globalThis.fetch;
  const count = { now: 0, most: 0 };
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (...args) => {
    count.now++;
    count.most = Math.max(count.most, count.now);
    try {
      return await real(...args);
    } finally {
      count.now--;
    }
  });
  return count;
}

function hook(n: Partial<Notifications> = {}): Notifications {
  return { url: `${base}/services/${SECRET}`, format: 'slack', templates: {}, ...n };
}

function notifier(n: Notifications | undefined) {
  const failures: string[] = [];
  const it = new Notifier(n, { rollout: 'r1', context: 'prod-eu' }, (line) => failures.push(line));
  return { it, failures };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

describe('renderTemplate and the default messages', () => {
  it('fills placeholders, with spaces inside the braces, and leaves unknown ones empty', () => {
    expect(renderTemplate('{{ rollout }}/{{node}}: {{done}} of {{  total}}', { rollout: 'r1', node: 'w-1', done: 0, total: 3 })).toBe(
      'r1/w-1: 0 of 3',
    );
    expect(renderTemplate('[{{nope}}] {{reason}} {{toString}}', { reason: undefined })).toBe('[]  ');
    expect(renderTemplate('{{ not closed } {x}', { x: 'y' })).toBe('{{ not closed } {x}');
  });

  it('has a message for every event, and a done one for a node that was not replaced', () => {
    const vars = { rollout: 'r1', context: 'prod', node: 'w-1', reason: 'window closed', replacement: 'w-9', done: 4, total: 5 };
    expect(Object.fromEntries(Object.keys(DEFAULT_TEMPLATES).map((e) => [e, messageFor(undefined, e as never, vars)]))).toEqual({
      start: 'Rollout r1 started in prod: 5 nodes',
      drained: 'Rollout r1: node w-1 drained',
      replaced: 'Rollout r1: node w-1 replaced by w-9',
      blocked: 'Rollout r1 in prod is held: window closed',
      paused: 'Rollout r1 in prod paused: window closed',
      failed: 'Rollout r1 in prod failed: window closed',
      completed: 'Rollout r1 in prod completed: 4 nodes done',
    });
    expect(messageFor(undefined, 'replaced', { rollout: 'r1', node: 'w-1' })).toBe('Rollout r1: node w-1 done');
    expect(messageFor({ templates: { replaced: '{{node}} → {{replacement}}' } }, 'replaced', { node: 'w-1' })).toBe('w-1 → ');
  });
});

describe('Notifier', () => {
  it('POSTs Slack bodies as JSON, in order and one at a time', async () => {
    const fetches = countFetches();
    const { it: n, failures } = notifier(hook({ templates: { drained: ':ok: {{node}} drained <b> & co' } }));
    n.send('start', { total: 3 });
    n.send('drained', { node: 'w-1' });
    n.send('replaced', { node: 'w-1', replacement: 'w-4' });
    n.send('replaced', { node: 'w-2' });
    n.send('completed', { done: 3, total: 3 });
    await n.flush();
    expect(received.map((r) => r.body)).toEqual([
      { text: 'Rollout r1 started in prod-eu: 3 nodes' },
      { text: ':ok: w-1 drained &lt;b&gt; &amp; co' },
      { text: 'Rollout r1: node w-1 replaced by w-4' },
      { text: 'Rollout r1: node w-2 done' },
      { text: 'Rollout r1 in prod-eu completed: 3 nodes done' },
    ]);
    expect(new Set(received.map((r) => `${r.path} ${r.contentType}`))).toEqual(new Set([`/services/${SECRET} application/json`]));
    expect(fetches.most).toBe(1);
    expect(failures).toEqual([]);
  });

  it('POSTs the event as an object in the json format', async () => {
    const { it: n } = notifier(hook({ format: 'json' }));
    n.send('blocked', { reason: 'held by 1 firing alert: TargetDown', node: undefined, rollout: 'not-this-one' });
    await n.flush();
    expect(received.map((r) => r.body)).toEqual([
      {
        event: 'blocked',
        rollout: 'r1',
        context: 'prod-eu',
        text: 'Rollout r1 in prod-eu is held: held by 1 firing alert: TargetDown',
        reason: 'held by 1 firing alert: TargetDown',
      },
    ]);
  });

  it('reports a failing webhook once per distinct failure, with the URL redacted, and goes on', async () => {
    status = 500;
    const { it: n, failures } = notifier(hook());
    n.send('blocked', { reason: 'a' });
    n.send('blocked', { reason: 'b' });
    n.send('paused', { reason: 'c' });
    await n.flush();
    status = 200;
    n.send('completed', { done: 2 });
    await n.flush();
    expect(received).toHaveLength(4);
    expect(failures).toEqual([
      `notification "blocked" to ${base}/… failed: HTTP 500: invalid_token`,
      `notification "paused" to ${base}/… failed: HTTP 500: invalid_token`,
    ]);
    expect(failures.join('\n')).not.toContain('services');
    expect(failures.join('\n')).not.toContain(SECRET);
  });

  it('never throws or rejects when nothing listens, or when the failure reporter throws', async () => {
    const port = await closedPort();
    const lines: string[] = [];
    const n = new Notifier(hook({ url: `http://127.0.0.1:${port}/hooks/${SECRET}` }), { rollout: 'r1', context: 'c' }, (line) => {
      lines.push(line);
      throw new Error('reporter broke');
    });
    expect(() => n.send('start', { total: 1 })).not.toThrow();
    expect(() => n.send('failed', { reason: 'drain timed out' })).not.toThrow();
    await expect(n.flush()).resolves.toBeUndefined();
    expect(lines).toEqual([
      `notification "start" to http://127.0.0.1:${port}/… failed: connect ECONNREFUSED 127.0.0.1:${port}`,
      `notification "failed" to http://127.0.0.1:${port}/… failed: connect ECONNREFUSED 127.0.0.1:${port}`,
    ]);
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  it('does nothing without notifications', async () => {
    const { it: n, failures } = notifier(undefined);
    expect(n.enabled).toBe(false);
    n.send('start', { total: 1 });
    await n.flush();
    expect(received).toEqual([]);
    expect(failures).toEqual([]);
  });

  it('keeps at most the queue bound waiting, dropping the oldest with one line', async () => {
    const { it: n, failures } = notifier(hook({ templates: { drained: '{{node}}' } }));
    const total = NOTIFY_QUEUE_MAX + 5;
    for (let i = 0; i < total; i++) n.send('drained', { node: `n${i}` });
    await n.flush();
    const texts = received.map((r) => (r.body as { text: string }).text);
    // n0 was already being sent; n1…n4 were dropped.
    expect(texts).toEqual(['n0', ...Array.from({ length: NOTIFY_QUEUE_MAX }, (_, i) => `n${i + 5}`)]);
    expect(failures).toEqual([`notifications to ${base}/… fell behind: dropping the oldest of ${NOTIFY_QUEUE_MAX} waiting`]);
  });

  it('flush gives up after its bound while a webhook does not answer, and the message goes out later', async () => {
    holding = true;
    const arrived = new Promise<void>((resolve) => {
      onHeld = resolve;
    });
    const { it: n, failures } = notifier(hook());
    n.send('start', { total: 2 });
    await arrived;
    await n.flush(20);
    expect(held).toHaveLength(1);
    for (const answer of held.splice(0)) answer();
    await n.flush();
    expect(received.map((r) => r.body)).toEqual([{ text: 'Rollout r1 started in prod-eu: 2 nodes' }]);
    expect(failures).toEqual([]);
  });
});

describe('Notifier.close', () => {
  it('sends nothing once closed', async () => {
    const { it: n, failures } = notifier(hook());
    n.close();
    n.send('start', { total: 1 });
    await n.flush();
    expect(received).toEqual([]);
    expect(failures).toEqual([]);
  });
});

describe('redactUrl and validateNotifications', () => {
  it('shows only the scheme and host of a URL', () => {
    expect(redactUrl(`https://hooks.slack.com/services/${SECRET}`)).toBe('https://hooks.slack.com/…');
    expect(redactUrl('https://user:pw@chat.example:8443/hooks?token=abc')).toBe('https://chat.example:8443/…');
    expect(redactUrl('https://chat.example')).toBe('https://chat.example/');
    expect(redactUrl('http://h/?token=abc')).toBe('http://h/…');
    expect(redactUrl('no url at all /secret')).toBe('(a URL that does not parse)');
  });

  it('accepts good notifications and names the first problem of bad ones', () => {
    expect(validateNotifications(hook({ templates: { blocked: 'held: {{ reason }}', start: 'go {{rollout}}' } }))).toBeUndefined();
    expect(validateNotifications(hook({ url: `ftp://files.example/${SECRET}` }))).toBe('notify: url must be http or https, not ftp');
    expect(validateNotifications(hook({ url: `hooks.example/${SECRET}` }))).toBe('notify: url (a URL that does not parse) is not a URL');
    expect(validateNotifications(hook({ format: 'teams' as 'json' }))).toBe('notify: format must be slack or json, not "teams"');
    expect(validateNotifications(hook({ templates: { rebooted: 'x' } as never }))).toBe(
      'notify: templates: unknown event "rebooted" (events: start, drained, replaced, blocked, paused, failed, completed)',
    );
    expect(validateNotifications(hook({ templates: { drained: '{{nod}} drained' } }))).toBe(
      'notify: templates.drained: unknown placeholder {{nod}} (known: rollout, context, node, reason, replacement, done, total)',
    );
  });
});
