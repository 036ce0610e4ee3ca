import { BLOCKDEVICE, LVMNODE } from '../../storage/inventory.js';

/*
 * The CRDs of what OpenEBS reports on the sandbox's simulated machines: the LVM LocalPV node
 * agent's LVMNodes (volume groups) and NDM's BlockDevices (disks), with their schemas
 * (descriptions left out). They are written as the server reads them (`enum`,
 * `x-kubernetes-int-or-string`) and turned into client-node's model to be sent.
 */

type Schema = Record<string, unknown>;
/** A CRD as its manifest says it (the server's field names). */
export type CrdManifest = { apiVersion: string; kind: string; metadata: { name: string }; spec: Schema };

const quantity: Schema = {
  anyOf: [{ type: 'integer' }, { type: 'string' }],
  pattern: '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$',
  'x-kubernetes-int-or-string': true,
};
const int32: Schema = { type: 'integer', format: 'int32' };

/** lvmnodes.local.openebs.io as OpenEBS LVM LocalPV installs it. */
export const LVMNODE_CRD: CrdManifest = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${LVMNODE.plural}.${LVMNODE.group}` },
  spec: {
    group: LVMNODE.group,
    names: { kind: LVMNODE.kind, listKind: 'LVMNodeList', plural: LVMNODE.plural, singular: 'lvmnode', shortNames: ['lvmnode'] },
    scope: 'Namespaced',
    versions: [
      {
        name: LVMNODE.version,
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            required: ['volumeGroups'],
            properties: {
              apiVersion: { type: 'string' },
              kind: { type: 'string' },
              metadata: { type: 'object' },
              volumeGroups: {
                type: 'array',
                items: {
                  type: 'object',
                  required: [
                    'allocationPolicy',
                    'free',
                    'lvCount',
                    'maxLv',
                    'maxPv',
                    'metadataCount',
                    'metadataFree',
                    'metadataSize',
                    'metadataUsedCount',
                    'missingPvCount',
                    'name',
                    'permissions',
                    'pvCount',
                    'size',
                    'snapCount',
                    'uuid',
                  ],
                  properties: {
                    allocationPolicy: { type: 'integer' },
                    free: quantity,
                    lvCount: { ...int32, minimum: 0 },
                    maxLv: int32,
                    maxPv: int32,
                    metadataCount: int32,
                    metadataFree: quantity,
                    metadataSize: quantity,
                    metadataUsedCount: int32,
                    missingPvCount: int32,
                    name: { type: 'string', minLength: 1 },
                    permissions: { type: 'integer' },
                    pvCount: { ...int32, minimum: 0 },
                    size: quantity,
                    snapCount: int32,
                    thinPools: {
                      type: 'array',
                      items: {
                        type: 'object',
                        required: ['free', 'name', 'size'],
                        properties: { free: quantity, name: { type: 'string' }, size: quantity },
                      },
                    },
                    uuid: { type: 'string', minLength: 1 },
                  },
                },
              },
            },
          },
        },
      },
    ],
  },
};

/** blockdevices.openebs.io as OpenEBS NDM installs it. */
export const BLOCKDEVICE_CRD: CrdManifest = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${BLOCKDEVICE.plural}.${BLOCKDEVICE.group}` },
  spec: {
    group: BLOCKDEVICE.group,
    names: { kind: BLOCKDEVICE.kind, listKind: 'BlockDeviceList', plural: BLOCKDEVICE.plural, singular: 'blockdevice', shortNames: ['bd'] },
    scope: 'Namespaced',
    versions: [
      {
        name: BLOCKDEVICE.version,
        served: true,
        storage: true,
        additionalPrinterColumns: [
          { jsonPath: '.spec.nodeAttributes.nodeName', name: 'NodeName', type: 'string' },
          { jsonPath: '.spec.path', name: 'Path', type: 'string', priority: 1 },
          { jsonPath: '.spec.filesystem.fsType', name: 'FSType', type: 'string', priority: 1 },
          { jsonPath: '.spec.capacity.storage', name: 'Size', type: 'string' },
          { jsonPath: '.status.claimState', name: 'ClaimState', type: 'string' },
          { jsonPath: '.status.state', name: 'Status', type: 'string' },
          { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
        ],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              apiVersion: { type: 'string' },
              kind: { type: 'string' },
              metadata: { type: 'object' },
              spec: {
                type: 'object',
                required: ['capacity', 'devlinks', 'nodeAttributes', 'path'],
                properties: {
                  aggregateDevice: { type: 'string' },
                  capacity: {
                    type: 'object',
                    required: ['storage'],
                    properties: { logicalSectorSize: int32, physicalSectorSize: int32, storage: { type: 'integer', format: 'int64' } },
                  },
                  claimRef: {
                    type: 'object',
                    properties: Object.fromEntries(
                      ['apiVersion', 'fieldPath', 'kind', 'name', 'namespace', 'resourceVersion', 'uid'].map((k) => [
                        k,
                        { type: 'string' },
                      ]),
                    ),
                  },
                  details: {
                    type: 'object',
                    properties: {
                      compliance: { type: 'string' },
                      deviceType: { type: 'string', enum: ['disk', 'partition', 'sparse', 'loop', 'lvm', 'crypt', 'dm', 'mpath'] },
                      driveType: { type: 'string', enum: ['HDD', 'SSD', 'Unknown', ''] },
                      firmwareRevision: { type: 'string' },
                      hardwareSectorSize: int32,
                      logicalBlockSize: int32,
                      model: { type: 'string' },
                      physicalBlockSize: int32,
                      serial: { type: 'string' },
                      vendor: { type: 'string' },
                    },
                  },
                  devlinks: {
                    type: 'array',
                    items: {
                      type: 'object',
                      properties: {
                        kind: { type: 'string', enum: ['by-id', 'by-path'] },
                        links: { type: 'array', items: { type: 'string' } },
                      },
                    },
                  },
                  filesystem: { type: 'object', properties: { fsType: { type: 'string' }, mountPoint: { type: 'string' } } },
                  nodeAttributes: { type: 'object', properties: { nodeName: { type: 'string' } } },
                  parentDevice: { type: 'string' },
                  partitioned: { type: 'string', enum: ['Yes', 'No'] },
                  path: { type: 'string' },
                },
              },
              status: {
                type: 'object',
                required: ['claimState', 'state'],
                properties: {
                  claimState: { type: 'string', enum: ['Claimed', 'Unclaimed', 'Released'] },
                  state: { type: 'string', enum: ['Active', 'Inactive', 'Unknown'] },
                },
              },
            },
          },
        },
      },
    ],
  },
};

export const SIMULATED_STORAGE_CRDS = [LVMNODE_CRD, BLOCKDEVICE_CRD];
