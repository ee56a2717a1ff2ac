// bb_runner: runs the commands bb_worker sends over a unix socket, in the worker's build directory,
// as the user that started it, with TMPDIR set to a per-action directory.
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
