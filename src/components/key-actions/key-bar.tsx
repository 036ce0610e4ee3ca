/**
 * Where the view on screen says which keys it offers, and where keys go: the app's bottom line
 * and help overlay read what the view on top publishes, as k9s's menu is filled from the view on
 * top of its page stack; each key goes to that view first, then to the app's own keys. A view
 * publishes while it is active; the latest one is on top.
 */
import type { Key } from 'ink';
import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react';
import type { HelpSection } from '../help-overlay/index.js';
import type { KeyHint } from '../key-hints/index.js';
import { useKeyPump } from './key-pump.js';

/** A view's keys as the bar routes them, asked live (the state the key before left). */
export interface KeyHandler {
  /** Runs the view's action for the key, if it has one (or refuses it): true when the key was the view's. */
  handle(input: string, key: Key): boolean;
  /** The view takes every key now: the app's own are off. */
  owns(): boolean;
  /** Keys typed later arrived: the line about the last one ends. */
  later(): void;
}

export interface KeyPublication {
  hints: readonly KeyHint[];
  /** What the help overlay shows while this view is on top. */
  help: readonly HelpSection[];
  /** The view takes every key: the app's own are off. */
  owns: boolean;
  /** One line about the last key (a refusal), until keys typed later. */
  notice?: string;
  /** Where the keys go while this view is on top. */
  keys?: KeyHandler;
}

export class KeyBar {
  private entries: { id: symbol; pub: KeyPublication }[] = [];
  private listeners = new Set<() => void>();
  /** The app's own keys, under every view. */
  private base: KeyHandler | undefined;

  setBase(handler: KeyHandler | undefined): void {
    this.base = handler;
  }

  /** One key: to the view on top; to the app's own keys when that view neither took it nor takes every key. */
  route(input: string, key: Key): void {
    const view = this.top()?.keys;
    if (view?.handle(input, key) || view?.owns()) return;
    this.base?.handle(input, key);
  }

  /** Keys typed later arrived: every line about an earlier key ends. */
  later(): void {
    for (const e of this.entries) e.pub.keys?.later();
    this.base?.later();
  }

  publish(id: symbol, pub: KeyPublication | undefined): void {
    const at = this.entries.findIndex((e) => e.id === id);
    if (pub === undefined && at < 0) return;
    if (at >= 0 && pub !== undefined && this.entries[at]!.pub === pub) return;
    this.entries = this.entries.filter((e) => e.id !== id);
    if (pub) this.entries.push({ id, pub });
    for (const l of this.listeners) l();
  }

  /** The view on top, if any publishes. */
  top(): KeyPublication | undefined {
    return this.entries.at(-1)?.pub;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

const KeyBarContext = createContext<KeyBar | undefined>(undefined);

/** The app's key bar, for the views inside to publish to; it takes the terminal's keys and routes them one at a time. */
export function KeyBarProvider({ bar, children }: { bar: KeyBar; children: ReactNode }) {
  useKeyPump(bar);
  return <KeyBarContext.Provider value={bar}>{children}</KeyBarContext.Provider>;
}

export function useKeyBarContext(): KeyBar | undefined {
  return useContext(KeyBarContext);
}

/** A key bar of the component's own, and what is on top of it (re-rendered when that changes). */
export function useKeyBar(): { bar: KeyBar; top: KeyPublication | undefined } {
  const bar = useMemo(() => new KeyBar(), []);
  const top = useSyncExternalStore(bar.subscribe, () => bar.top());
  return { bar, top };
}

/** The write gate as the views see it: whether the run is read-only, and the gate's refusal of an action. */
export interface GateView {
  readOnly: boolean;
  /** The gate's one line refusing `action` (e.g. "rollout abort uncordons nodes and is refused with --read-only"). */
  refusal(action: string): string;
}

const OPEN_GATE: GateView = { readOnly: false, refusal: (action) => action };
const GateContext = createContext<GateView>(OPEN_GATE);

export function GateProvider({ gate, children }: { gate: GateView; children: ReactNode }) {
  return <GateContext.Provider value={gate}>{children}</GateContext.Provider>;
}

export function useGate(): GateView {
  return useContext(GateContext);
}
