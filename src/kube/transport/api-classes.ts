/**
 * The generated API classes that modules on the road of a one-shot `status` call only on
 * demand, through lazyClient (client.ts): imported dynamically, so that their code (with all
 * of client-node's models, ~2.4 MB) is a chunk of its own that such a run never loads.
 */
export { ApiextensionsV1Api, AppsV1Api, CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
