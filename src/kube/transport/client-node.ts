/**
 * The values of client-node that a one-shot `status` uses, imported from the package's own
 * modules rather than its index. esbuild gives a module to every chunk that reaches it through
 * imports, and the index re-exports the generated API classes and models (~2.4 MB): a chunk
 * importing `KubeConfig` from the index would load them all. src/build.ts also points the one
 * import of the generated index inside client-node (config.js) at only what it uses.
 * Types still come from '@kubernetes/client-node' (they leave no import behind).
 */
export { KubeConfig } from '@kubernetes/client-node/dist/config.js';
export { newClusters, newContexts, newUsers } from '@kubernetes/client-node/dist/config_types.js';
export { ApiException } from '@kubernetes/client-node/dist/gen/apis/exception.js';
export { createConfiguration } from '@kubernetes/client-node/dist/gen/configuration.js';
export { HttpMethod, ResponseContext, wrapHttpLibrary } from '@kubernetes/client-node/dist/gen/http/http.js';
export { ServerConfiguration } from '@kubernetes/client-node/dist/gen/servers.js';
export { setHeaderOptions } from '@kubernetes/client-node/dist/middleware.js';
export { PatchStrategy } from '@kubernetes/client-node/dist/patch.js';
