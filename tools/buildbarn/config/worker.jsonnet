// bb_worker number $BB_WORKER_INDEX: takes actions from bb_scheduler, creates each input root in a
// native build directory (hard links from a local file cache; no FUSE), has its bb_runner run the
// command, and uploads the outputs to bb_storage. $BB_CONCURRENCY runner slots; start.sh starts
// $BB_WORKERS of these.
local common = import 'common.libsonnet';

{
  global: common.global,
  blobstore: {
    contentAddressableStorage: { grpc: common.grpcClient(common.frontendAddress) },
    actionCache: { grpc: common.grpcClient(common.frontendAddress) },
  },
  scheduler: common.grpcClient(common.schedulerWorkerAddress),
  browserUrl: 'http://' + common.schedulerAdminAddress,
  maximumMessageSizeBytes: common.maximumMessageSizeBytes,
  buildDirectories: [{
    native: {
      buildDirectoryPath: common.buildDirectory,
      // Must be on the same file system as the build directory (input files are hard links).
      cacheDirectoryPath: common.workerDir + '/cache',
      maximumCacheFileCount: 200000,
      maximumCacheSizeBytes: 8 * 1024 * 1024 * 1024,
      cacheReplacementPolicy: 'LEAST_RECENTLY_USED',
    },
    runners: [{
      endpoint: common.grpcClient('unix://' + common.runnerSocket),
      concurrency: common.concurrency,
      platform: common.platform,
      // Unique per worker: the scheduler tells workers apart by this.
      workerId: { host: 'localhost', worker: common.workerIndex },
      maximumFilePoolFileCount: 10000,
      maximumFilePoolSizeBytes: 1024 * 1024 * 1024,
    }],
  }],
  filePool: { blockDevice: { file: { path: common.workerDir + '/filepool', sizeBytes: 4 * 1024 * 1024 * 1024 } } },
  inputDownloadConcurrency: 16,
  outputUploadConcurrency: 16,
  directoryCache: {
    maximumCount: 10000,
    maximumSizeBytes: 64 * 1024 * 1024,
    cacheReplacementPolicy: 'LEAST_RECENTLY_USED',
  },
}
