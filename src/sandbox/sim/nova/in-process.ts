/**
 * A container the sandbox plays in process (the Nova agent, the Nova scheduler): running from
 * its start, it calls `tick()` now and then every `periodMs` after the previous one ended, and
 * writes its own container log (see container-log.ts) so `kubectl logs` shows what it does.
 */
import { ContainerLog, podLogDir } from '../container-log.js';
import { RealContainer, rfc3339 } from '../container.js';

export abstract class InProcessContainer extends RealContainer {
  private timer: NodeJS.Timeout | undefined;
  protected stopping = false;
  private running: Promise<void> | undefined;
  private log: ContainerLog | undefined;

  protected abstract readonly periodMs: number;
  protected abstract readonly what: string;
  protected abstract tick(): Promise<void>;

  /** A line of the container's own log. */
  protected say(text: string, stream: 'stdout' | 'stderr' = 'stdout'): void {
    this.log?.write(stream, `${rfc3339()} ${stream === 'stderr' ? 'ERROR' : 'INFO'} ${text}`);
  }

  start(): void {
    const p = this.pod.spec.metadata;
    this.log = new ContainerLog(
      podLogDir(this.pod.deps.runtime.dir, p?.namespace ?? '', p?.name ?? '', this.pod.uid),
      this.spec.name,
      this.restartCount,
    );
    this.say(`starting ${this.what} (image ${this.spec.image ?? 'unknown'})`);
    this.state = 'running';
    this.everStarted = true;
    this.startedAt = new Date();
    this.pod.changed();
    this.schedule(0);
  }

  /** Ready or not, reported at once when it changes. */
  protected setReady(ok: boolean): void {
    if (ok === this.ready) return;
    this.ready = ok;
    this.pod.changed();
  }

  private schedule(ms: number): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.tick().finally(() => {
        this.running = undefined;
        this.schedule(this.periodMs);
      });
    }, ms);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    this.say('received SIGTERM; stopping');
    this.log?.close();
    this.state = 'terminated';
    this.lastTerminated = {
      exitCode: 0,
      reason: 'Completed',
      startedAt: this.startedAt,
      finishedAt: new Date(),
      containerID: this.containerID,
    };
  }
}
