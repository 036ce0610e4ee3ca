/**
 * Notifications (kured's --notify-url and its message templates): a webhook told when a rollout
 * starts, drains or replaces a node, is held, pauses, fails or completes. Slack-compatible JSON
 * by default. Sent in order, one at a time, in the background: a webhook that fails is reported
 * (once per distinct failure) and the rollout goes on.
 */
import { NOTIFY_EVENTS, type Notifications, type NotifyEvent } from './types.js';

export type TemplateVars = Record<string, string | number | undefined>;

/** The placeholders a template may use. */
export const TEMPLATE_VARS = ['rollout', 'context', 'node', 'reason', 'replacement', 'done', 'total'] as const;

export const DEFAULT_TEMPLATES: Record<NotifyEvent, string> = {
  start: 'Rollout {{rollout}} started in {{context}}: {{total}} nodes',
  drained: 'Rollout {{rollout}}: node {{node}} drained',
  replaced: 'Rollout {{rollout}}: node {{node}} replaced by {{replacement}}',
  blocked: 'Rollout {{rollout}} in {{context}} is held: {{reason}}',
  paused: 'Rollout {{rollout}} in {{context}} paused: {{reason}}',
  failed: 'Rollout {{rollout}} in {{context}} failed: {{reason}}',
  completed: 'Rollout {{rollout}} in {{context}} completed: {{done}} nodes done',
};

/** The default `replaced` message when the node has no replacement (it was uncordoned in place). */
export const NODE_DONE_TEMPLATE = 'Rollout {{rollout}}: node {{node}} done';

/** How long one POST may take. */
export const NOTIFY_TIMEOUT_MS = 10_000;
/** Messages waiting at most; past it the oldest is dropped. */
export const NOTIFY_QUEUE_MAX = 100;

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Fills `{{name}}` placeholders (spaces inside the braces allowed); an unknown or missing one is empty. */
export function renderTemplate(template: string, vars: TemplateVars): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const v = Object.hasOwn(vars, name) ? vars[name] : undefined;
    return v === undefined ? '' : String(v);
  });
}

/** `https://hooks.slack.com/…`: a webhook's path and query often hold its secret, so only the scheme and host are ever shown. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    const bare = u.pathname === '/' && !u.search && !u.hash;
    return `${u.protocol}//${u.host}/${bare ? '' : '…'}`;
  } catch {
    return '(a URL that does not parse)';
  }
}

/** One line naming what is wrong with the notifications, or undefined when they can be used. */
export function validateNotifications(n: Notifications): string | undefined {
  let u: URL;
  try {
    u = new URL(n.url);
  } catch {
    return `notify: url ${redactUrl(n.url)} is not a URL`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `notify: url must be http or https, not ${u.protocol.replace(/:$/, '')}`;
  if (n.format !== 'slack' && n.format !== 'json') return `notify: format must be slack or json, not ${JSON.stringify(n.format)}`;
  for (const [event, template] of Object.entries(n.templates ?? {})) {
    if (!(NOTIFY_EVENTS as readonly string[]).includes(event))
      return `notify: templates: unknown event ${JSON.stringify(event)} (events: ${NOTIFY_EVENTS.join(', ')})`;
    if (typeof template !== 'string') return `notify: templates.${event} must be a string`;
    for (const m of template.matchAll(PLACEHOLDER)) {
      const name = m[1] ?? '';
      if (!(TEMPLATE_VARS as readonly string[]).includes(name)) {
        return `notify: templates.${event}: unknown placeholder {{${name}}} (known: ${TEMPLATE_VARS.join(', ')})`;
      }
    }
  }
  return undefined;
}

/** Slack's text escapes: &, < and > are its markup. */
function slackEscape(s: string): string {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** The message of an event: its template (the node-done one for a `replaced` with no replacement). */
export function messageFor(n: Pick<Notifications, 'templates'> | undefined, event: NotifyEvent, vars: TemplateVars): string {
  const own = n?.templates[event];
  const template = own ?? (event === 'replaced' && !vars.replacement ? NODE_DONE_TEMPLATE : DEFAULT_TEMPLATES[event]);
  return renderTemplate(template, vars);
}

interface Message {
  event: NotifyEvent;
  body: string;
}

/**
 * Sends a rollout's notifications. `send` only queues (it never throws); the queue is posted in
 * order, one at a time. Without notifications configured it does nothing.
 */
export class Notifier {
  private readonly queue: Message[] = [];
  private running: Promise<void> | undefined;
  private closed = false;
  private readonly inFlight = new AbortController();
  private readonly reported = new Set<string>();
  private readonly shown: string;

  constructor(
    private readonly n: Notifications | undefined,
    private readonly base: { rollout: string; context: string },
    private readonly onFailure: (line: string) => void,
  ) {
    this.shown = n ? redactUrl(n.url) : '';
  }

  /** Whether there is a webhook to tell. */
  get enabled(): boolean {
    return this.n !== undefined;
  }

  /** Queues the event's message. */
  send(event: NotifyEvent, vars: TemplateVars = {}): void {
    try {
      if (!this.n || this.closed) return;
      const all = { ...vars, rollout: this.base.rollout, context: this.base.context };
      const text = messageFor(this.n, event, all);
      const body =
        this.n.format === 'json'
          ? JSON.stringify({ event, rollout: this.base.rollout, context: this.base.context, text, ...definedVars(vars) })
          : JSON.stringify({ text: slackEscape(text) });
      if (this.queue.length >= NOTIFY_QUEUE_MAX) {
        this.queue.shift();
        this.fail(`notifications to ${this.shown} fell behind: dropping the oldest of ${NOTIFY_QUEUE_MAX} waiting`);
      }
      this.queue.push({ event, body });
      this.pump();
    } catch (err) {
      this.fail(`notification "${event}" to ${this.shown} failed: ${oneLine(err)}`);
    }
  }

  /** Waits until every queued message is sent (or has failed), at most `ms`. Never rejects. */
  async flush(ms = NOTIFY_TIMEOUT_MS): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        timedOut = true;
        resolve();
      }, ms);
      timer.unref();
    });
    try {
      while (this.running && !timedOut) await Promise.race([this.running, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private pump(): void {
    if (this.running) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      // A message queued between the loop's end and now.
      if (this.queue.length > 0) this.pump();
    });
  }

  /** Drops what is still queued and stops the message in flight: nothing is sent from now on. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.inFlight.abort();
  }

  private async drain(): Promise<void> {
    for (let m = this.queue.shift(); m && !this.closed; m = this.queue.shift()) {
      const why = await this.post(m);
      if (why) this.fail(`notification "${m.event}" to ${this.shown} failed: ${why}`);
    }
  }

  /** POSTs one message; the reason it failed, or undefined. */
  private async post(m: Message): Promise<string | undefined> {
    const url = this.n?.url ?? '';
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: m.body,
        signal: AbortSignal.any([AbortSignal.timeout(NOTIFY_TIMEOUT_MS), this.inFlight.signal]),
      });
      if (res.ok) {
        await res.body?.cancel();
        return undefined;
      }
      const text = (await res.text()).trim().split('\n')[0]?.trim() ?? '';
      const said = text && text.length <= 120 && !text.startsWith('<') ? `: ${text}` : '';
      return scrub(`HTTP ${res.status}${said}`, url, this.shown);
    } catch (err) {
      if (err instanceof Error && err.name === 'TimeoutError') return `no answer in ${NOTIFY_TIMEOUT_MS / 1000} s`;
      const cause = err instanceof Error ? (err.cause as { message?: unknown } | undefined) : undefined;
      const why = typeof cause?.message === 'string' && cause.message ? oneLine(cause.message) : oneLine(err);
      return scrub(why, url, this.shown);
    }
  }

  /** Reports a failure line, once per distinct line; a reporter that throws is ignored. */
  private fail(line: string): void {
    if (this.reported.has(line)) return;
    this.reported.add(line);
    try {
      this.onFailure(line);
    } catch {
      // The rollout goes on.
    }
  }
}

/** The variables that have a value, without the ones the body sets itself. */
function definedVars(vars: TemplateVars): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(vars)) {
    if (v !== undefined && k !== 'event' && k !== 'rollout' && k !== 'context' && k !== 'text') out[k] = v;
  }
  return out;
}

function oneLine(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.replace(/\s*\n\s*/g, ' ').trim() || 'unknown error';
}

/** A line that quotes the webhook's URL (an error from fetch may) shows it redacted. */
function scrub(line: string, url: string, shown: string): string {
  if (!url) return line;
  let out = line.replaceAll(url, shown);
  try {
    const u = new URL(url);
    out = out.replaceAll(u.href, shown);
    if (u.pathname.length > 1) out = out.replaceAll(u.pathname, '/…');
  } catch {
    // Not a URL: nothing else to hide.
  }
  return out;
}
