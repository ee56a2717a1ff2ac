// bb_storage: the endpoint Bazel talks to (--remote_executor=grpc://127.0.0.1:$BB_PORT). It stores
// the Content Addressable Storage and the Action Cache in files under $BB_STATE_DIR/storage (kept
// across restarts) and forwards Execute requests to bb_scheduler, as Buildbarn's "frontend" does.
local common = import 'common.libsonnet';

local localStore(dir, sizeBytes, keyLocationMapBytes, newBlocks) = {
  'local': {
    keyLocationMapOnBlockDevice: { file: { path: dir + '/key_location_map', sizeBytes: keyLocationMapBytes } },
    keyLocationMapMaximumGetAttempts: 16,
    keyLocationMapMaximumPutAttempts: 64,
    // A blob must fit in one block, and a block is about sizeBytes/16 here: 1 GiB for the default
    // 16 GiB CAS, enough for the largest CUDA library (libcublasLt.so, ~500 MB).
    oldBlocks: 4,
    currentBlocks: 8,
    newBlocks: newBlocks,
    blocksOnBlockDevice: {
      source: { file: { path: dir + '/blocks', sizeBytes: sizeBytes } },
      spareBlocks: 2,
    },
    persistent: { stateDirectoryPath: dir + '/persistent_state', minimumEpochInterval: '60s' },
  },
};

{
  global: common.global,
  grpcServers: [common.grpcServer(common.frontendAddress) {
    maximumReceivedMessageSizeBytes: common.maximumMessageSizeBytes,
  }],
  maximumMessageSizeBytes: common.maximumMessageSizeBytes,
  contentAddressableStorage: {
    backend: localStore(common.stateDir + '/storage/cas', common.casSizeBytes, 64 * 1024 * 1024, 2),
    getAuthorizer: { allow: {} },
    putAuthorizer: { allow: {} },
    findMissingAuthorizer: { allow: {} },
  },
  actionCache: {
    // Only return action results whose outputs are all still in the CAS. (An Action Cache, whose
    // entries are overwritten, must have exactly one "new" block.)
    backend: {
      completenessChecking: {
        backend: localStore(common.stateDir + '/storage/ac', 256 * 1024 * 1024, 8 * 1024 * 1024, 1),
        maximumTotalTreeSizeBytes: 64 * 1024 * 1024,
      },
    },
    getAuthorizer: { allow: {} },
    putAuthorizer: { allow: {} },
  },
  // Execute for every instance name goes to bb_scheduler.
  schedulers: {
    '': { endpoint: common.grpcClient(common.schedulerClientAddress) },
  },
  executeAuthorizer: { allow: {} },
}
