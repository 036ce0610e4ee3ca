/**
 * Where the view on screen says which keys it offers: the app's bottom line and help overlay
 * read it, as k9s's menu is filled from the view on top of its page stack. A view publishes while
 * it is active; the latest one is on top.
 */
import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react';
import type { HelpSection } from '../help-overlay/index.js';
import type { KeyHint } from '../key-hints/index.js';

export interface KeyPublication {
  hints: readonly KeyHint[];
  /** What the help overlay shows while this view is on top. */
  help: readonly HelpSection[];
  /** The view takes every key: the app's own are off. */
  owns: boolean;
  /** One line about the last key (a refusal), until the next key. */
  notice?: string;
}

export class KeyBar {
  private entries: { id: symbol; pub: KeyPublication }[] = [];
  private listeners = new Set<() => void>();

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

/** The app's key bar, for the views inside to publish to. */
export function KeyBarProvider({ bar, children }: { bar: KeyBar; children: ReactNode }) {
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
