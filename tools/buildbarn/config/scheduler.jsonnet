// bb_scheduler: queues actions from bb_storage (client port) and hands them to bb_worker (worker
// port); its admin page (http://127.0.0.1:$BB_ADMIN_PORT) lists queues, workers and operations.
local common = import 'common.libsonnet';

{
  global: common.global,
  clientGrpcServers: [common.grpcServer(common.schedulerClientAddress)],
  workerGrpcServers: [common.grpcServer(common.schedulerWorkerAddress)],
  adminHttpServers: [common.httpServer(common.schedulerAdminAddress)],
  browserUrl: 'http://' + common.schedulerAdminAddress,
  contentAddressableStorage: { grpc: common.grpcClient(common.frontendAddress) },
  maximumMessageSizeBytes: common.maximumMessageSizeBytes,
  executeAuthorizer: { allow: {} },
  modifyDrainsAuthorizer: { allow: {} },
  killOperationsAuthorizer: { allow: {} },
  synchronizeAuthorizer: { allow: {} },
  actionRouter: {
    simple: {
      platformKeyExtractor: { actionAndCommand: {} },
      invocationKeyExtractors: [{ correlatedInvocationsId: {} }, { toolInvocationId: {} }],
      initialSizeClassAnalyzer: {
        defaultExecutionTimeout: '1800s',
        maximumExecutionTimeout: '7200s',
      },
    },
  },
  // Keep a platform's queue while its worker restarts.
  platformQueueWithNoWorkersTimeout: '900s',
}
