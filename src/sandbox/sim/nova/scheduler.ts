/**
 * The nova-scheduler, played in process: with the kubeconfig its `--kubeconfig` arg names it
 * places the control plane's workloads every 2 s (schedule.ts), writing Events as
 * `nova-scheduler`. Ready while the API server answers; a failing pass is logged once and retried.
 */
import { EventRecorder } from '../../../kube/events/event-recorder.js';
import { describeError, statusCode } from '../../../kube/transport/client.js';
import { MountError } from '../volumes.js';
import { flagKubeConfig } from './connect.js';
import { InProcessContainer } from './in-process.js';
import { Scheduler } from './schedule.js';

export class SchedulerContainer extends InProcessContainer {
  protected readonly periodMs = 2_000;
  protected readonly what = 'nova-scheduler';
  private scheduler: Scheduler | undefined;
  private lastError = '';

  protected async tick(): Promise<void> {
    try {
      if (!this.scheduler) {
        const { kc, server } = await flagKubeConfig(this.pod, this.spec);
        const events = new EventRecorder(kc, { component: 'nova-scheduler', instance: this.pod.spec.metadata?.name ?? 'nova-scheduler' });
        this.scheduler = new Scheduler(kc, events);
        this.say(`placing workloads of the control plane at ${server}`);
      }
      await this.scheduler.pass();
      if (this.lastError) this.say(`placing again after: ${this.lastError}`);
      this.lastError = '';
      this.setReady(true);
    } catch (err) {
      const why = err instanceof MountError ? err.message : describeError(err);
      if (why !== this.lastError) this.say(`cannot place workloads: ${why}`, 'stderr');
      this.lastError = why;
      // Ready while the API server answers (a refusal of its rights included: the install grants
      // them after the control plane is up); not Ready while it cannot be reached at all.
      this.setReady(!!this.scheduler && statusCode(err) !== undefined);
      if (statusCode(err) === undefined) this.scheduler = undefined;
    }
  }
}
