"""Building the project's Go helpers with the host Go inside repository rules."""

def find_go(rctx):
    """Finds the host Go (>= 1.24) where find_go.sh, the one list of places, looks; or fails.

    Args:
      rctx: the repository_ctx.

    Returns:
      The path of the go binary.
    """
    bash = rctx.which("bash") or "/bin/bash"
    r = rctx.execute([bash, rctx.path(Label(":find_go.sh"))])
    if r.return_code == 0 and r.stdout.strip():
        return rctx.path(r.stdout.strip())
    fail("rules_cuda_go: configuring CUDA needs Go >= 1.24 to build its helpers; " +
         (r.stderr.strip() or "toolchains/private/find_go.sh failed") +
         ". Install Go (./bazelw does) or set GOROOT.")

def go_build(rctx, pkg, out, cgo = False, env = {}):
    """Builds package pkg of this module (e.g. "./toolchains/probe") into out; returns exec_result.

    Args:
      rctx: the repository_ctx.
      pkg: the package, relative to the module root.
      out: the output path (string).
      cgo: whether to enable cgo.
      env: extra environment variables.

    Returns:
      The exec_result of `go build`.
    """
    src_root = rctx.path(Label("//:go.mod")).dirname

    # GOWORK=off: the library's module alone (go.mod), not go.work's other modules, whose
    # dependencies (Gazelle, gonum/plot, ...) the resolver and the probe do not need.
    environment = {"GOFLAGS": "-mod=mod -buildvcs=false", "GOTOOLCHAIN": "local", "GOWORK": "off", "CGO_ENABLED": "1" if cgo else "0"}
    if not rctx.os.environ.get("GOCACHE") and not rctx.os.environ.get("HOME"):
        environment["GOCACHE"] = str(rctx.path("_gocache"))
    environment.update(env)
    return rctx.execute(
        [find_go(rctx), "build", "-o", out, pkg],
        working_directory = str(src_root),
        environment = environment,
        timeout = 600,
    )

def watch_sources(rctx, *dirs):
    """Re-runs the repository rule when the Go sources of these module directories change.

    Args:
      rctx: the repository_ctx.
      *dirs: directories relative to the module root; missing ones are skipped.
    """
    src_root = rctx.path(Label("//:go.mod")).dirname
    for d in dirs:
        p = src_root
        for part in d.split("/"):
            p = p.get_child(part)
        if p.exists:
            rctx.watch_tree(p)
