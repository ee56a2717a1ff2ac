// Settings shared by the four Buildbarn configurations. Buildbarn evaluates its configuration files
// as Jsonnet with every environment variable available through std.extVar; start.sh exports these:
//   BB_STATE_DIR        directory for storage, build directories, sockets and logs
//   BB_PORT             the endpoint Bazel talks to (bb_storage: CAS, AC, and Execute forwarded to
//                       the scheduler), 127.0.0.1:BB_PORT
//   BB_SCHEDULER_PORT   bb_scheduler's client gRPC port (Execute, WaitExecution)
//   BB_WORKER_PORT      bb_scheduler's worker gRPC port (bb_worker synchronizes here)
//   BB_ADMIN_PORT       bb_scheduler's admin web page (queues, workers, operations)
//   BB_CONCURRENCY      actions run at once by each worker (start.sh: the cores divided among them)
//   BB_WORKER_INDEX     set for bb_worker and bb_runner only: which worker (1, 2, ...) this is
//   BB_CAS_SIZE_GB      size of the CAS's data file (sparse)
local env(name) = std.extVar(name);
local state = env('BB_STATE_DIR');
local address(port) = '127.0.0.1:' + port;

{
  stateDir: state,

  frontendAddress: address(env('BB_PORT')),
  schedulerClientAddress: address(env('BB_SCHEDULER_PORT')),
  schedulerWorkerAddress: address(env('BB_WORKER_PORT')),
  schedulerAdminAddress: address(env('BB_ADMIN_PORT')),

  concurrency: std.parseInt(env('BB_CONCURRENCY')),
  casSizeBytes: std.parseInt(env('BB_CAS_SIZE_GB')) * 1024 * 1024 * 1024,

  // Worker N's directories (build directory, file cache, file pool) are under worker-N/. bb_worker
  // creates the input roots in the build directory and its bb_runner runs the commands there, so
  // both must name the same path; they talk over runner-N.sock. (Read by worker and runner only:
  // Jsonnet evaluates a field when it is used.)
  workerIndex: env('BB_WORKER_INDEX'),
  workerDir: state + '/worker-' + self.workerIndex,
  buildDirectory: self.workerDir + '/build',
  runnerSocket: state + '/runner-' + self.workerIndex + '.sock',

  // The platform the worker offers. Buildbarn matches platforms exactly, so Bazel must send exactly
  // this: --remote_default_exec_properties=OSFamily=linux (for execution platforms without
  // exec_properties, such as the host platform).
  platform: { properties: [{ name: 'OSFamily', value: 'linux' }] },

  maximumMessageSizeBytes: 16 * 1024 * 1024,

  // gRPC and HTTP servers on loopback, open to every caller.
  grpcServer(listenAddress): {
    listenAddresses: [listenAddress],
    authenticationPolicy: { allow: {} },
  },
  httpServer(listenAddress): {
    listenAddresses: [listenAddress],
    authenticationPolicy: { allow: {} },
  },
  grpcClient(address): { address: address },

  global: {},
}
