"""Building the project's Go helpers with the host Go inside repository rules."""

# Where Go is looked for after $GOROOT and PATH; ./bazelw puts the Go it found or installed first
# on PATH, so these matter only for plain `bazel`.
GO_CANDIDATES = ["/usr/local/go/bin/go", "/usr/lib/go-1.26/bin/go"]

def find_go(rctx):
    """Finds the host Go, or fails saying where it looked.

    Args:
      rctx: the repository_ctx.

    Returns:
      The path of the go binary.
    """
    goroot = rctx.os.environ.get("GOROOT", "")
    if goroot and rctx.path(goroot + "/bin/go").exists:
        return rctx.path(goroot + "/bin/go")
    go = rctx.which("go")
    if go:
        return go
    for c in GO_CANDIDATES:
        if rctx.path(c).exists:
            return rctx.path(c)
    fail("rules_cuda_go: configuring CUDA needs Go >= 1.24 to build its helpers; looked at " +
         "$GOROOT/bin/go, go on PATH, " + ", ".join(GO_CANDIDATES) +
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
    environment = {"GOFLAGS": "-mod=mod -buildvcs=false", "GOTOOLCHAIN": "local", "CGO_ENABLED": "1" if cgo else "0"}
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
