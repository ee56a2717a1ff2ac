// bb_runner number $BB_WORKER_INDEX: runs the commands its bb_worker sends over a unix socket, in
// that worker's build directory, as the user that started it, with TMPDIR set to a per-action
// directory.
local common = import 'common.libsonnet';

{
  global: common.global,
  buildDirectoryPath: common.buildDirectory,
  grpcServers: [{
    listenPaths: [common.runnerSocket],
    authenticationPolicy: { allow: {} },
  }],
  setTmpdirEnvironmentVariable: true,
}
