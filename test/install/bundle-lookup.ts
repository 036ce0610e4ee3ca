/** Looking up a bundle's objects and their fields in the bundle tests. */
import type { KubeObject } from '../../src/install/bundle.js';

/** The error a promise rejects with. */
export async function failure(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as Error,
  );
}

export const key = (o: KubeObject) => `${o.apiVersion}/${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
export const byKey = (objs: KubeObject[]) => [...objs].sort((a, b) => key(a).localeCompare(key(b)));
export const find = (objs: KubeObject[], kind: string, name: string) => {
  const o = objs.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name}`);
  return o;
};

export const spec = (o: KubeObject) => o.spec as any;
export const pod = (o: KubeObject) => spec(o).template.spec;
export const args = (o: KubeObject, container = 0): string[] => pod(o).containers[container].args;
export const flag = (o: KubeObject, name: string) =>
  args(o)
    .find((a) => a.startsWith(`--${name}=`))
    ?.slice(name.length + 3);
