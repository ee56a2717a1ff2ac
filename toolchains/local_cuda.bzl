"""local_cuda: the repository rule that finds the CUDA toolkit and the GPUs on this machine.

It builds the Go resolver (toolchains/resolver/cmd/cuda-archs) with the host Go and lets it do the
work, so that the Go package is the one place that knows nvcc layouts and TORCH_CUDA_ARCH_LIST rules:
  * `cuda-archs --detect` finds nvcc (CUDA_PATH, CUDA_HOME, PATH, /usr/local/cuda, Debian's layout),
    its version and the codes it supports;
  * the GPUs come from a gorgonia.org/cu probe (a separate process: its init exits when there is no
    driver or GPU), else `nvidia-smi --query-gpu=compute_cap`; any failure means "no GPUs";
  * `cuda-archs --bzl` writes the table the rules resolve arch specs with at analysis time, so the
    resulting -gencode flags are on the nvcc command lines (visible to `bazel aquery`).
TORCH_CUDA_ARCH_LIST, CUDA_PATH and CUDA_HOME are declared, so changing them re-runs this rule.
"""

# Used when TORCH_CUDA_ARCH_LIST is unset and no GPU is visible: Ampere and Hopper, with PTX for
# newer GPUs to JIT from. Documented in README.md.
DEFAULT_ARCH_SPEC = "8.0;9.0+PTX"

# Directories of a toolkit root that nvcc reads through its nvcc.profile ($(_HERE_)/..). They are
# linked into the repository and are inputs of every nvcc action, so sandboxed actions see them.
_TOOLKIT_DIRS = ["nvvm", "lib64", "targets", "libdevice"]

_GO_CANDIDATES = ["/usr/local/go/bin/go", "/usr/lib/go-1.26/bin/go"]

def _find_go(rctx):
    goroot = rctx.os.environ.get("GOROOT", "")
    if goroot and rctx.path(goroot + "/bin/go").exists:
        return rctx.path(goroot + "/bin/go")
    go = rctx.which("go")
    if go:
        return go
    for c in _GO_CANDIDATES:
        if rctx.path(c).exists:
            return rctx.path(c)
    fail("rules_cuda_go: the CUDA toolchain configuration needs Go >= 1.24 to build its resolver; " +
         "looked at $GOROOT/bin/go, go on PATH, " + ", ".join(_GO_CANDIDATES) +
         ". Install Go (./bazelw does) or set GOROOT.")

def _go_env(rctx):
    env = {"GOFLAGS": "-mod=mod -buildvcs=false", "GOTOOLCHAIN": "local"}
    if not rctx.os.environ.get("GOCACHE") and not rctx.os.environ.get("HOME"):
        env["GOCACHE"] = str(rctx.path("_gocache"))
    return env

def _go_build(rctx, go, src_root, pkg, out, cgo):
    env = _go_env(rctx)
    env["CGO_ENABLED"] = "1" if cgo else "0"
    return rctx.execute(
        [go, "build", "-o", out, pkg],
        working_directory = str(src_root),
        environment = env,
        timeout = 600,
    )

def _detect_gpus(rctx, go, src_root):
    """Returns (list of "X.Y", how they were found)."""
    res = _go_build(rctx, go, src_root, "./toolchains/probe", str(rctx.path("_tools/gpu-probe")), True)
    if res.return_code == 0:
        probe = rctx.execute([rctx.path("_tools/gpu-probe")], timeout = 60)
        if probe.return_code == 0:
            return [line.strip() for line in probe.stdout.splitlines() if line.strip()], "gorgonia.org/cu probe"
    smi = rctx.which("nvidia-smi")
    if smi:
        res = rctx.execute([smi, "--query-gpu=compute_cap", "--format=csv,noheader"], timeout = 60)
        if res.return_code == 0:
            return [line.strip() for line in res.stdout.splitlines() if line.strip()], "nvidia-smi"
    return [], "none visible"

def _local_cuda_impl(rctx):
    src_root = rctx.path(Label("//:go.mod")).dirname
    rctx.watch_tree(src_root.get_child("toolchains").get_child("resolver"))
    rctx.watch_tree(src_root.get_child("toolchains").get_child("probe"))
    go = _find_go(rctx)
    tool = str(rctx.path("_tools/cuda-archs"))
    res = _go_build(rctx, go, src_root, "./toolchains/resolver/cmd/cuda-archs", tool, False)
    if res.return_code != 0:
        fail("rules_cuda_go: building the arch resolver with %s failed:\n%s" % (go, res.stderr))

    env = {k: rctx.os.environ[k] for k in ["CUDA_PATH", "CUDA_HOME", "PATH"] if k in rctx.os.environ}
    res = rctx.execute([tool, "--detect"], environment = env, timeout = 120)
    if res.return_code != 0:
        fail("rules_cuda_go: cuda-archs --detect failed:\n" + res.stderr)
    detected = json.decode(res.stdout)

    gpus, gpu_source = _detect_gpus(rctx, go, src_root)
    supported = detected.get("supported") or []
    sup_args = ["--supported", ",".join(supported)] if supported else []

    res = rctx.execute([tool, "--bzl"] + sup_args, timeout = 60)
    if res.return_code != 0:
        fail("rules_cuda_go: cuda-archs --bzl failed:\n" + res.stderr)
    rctx.file("archs.bzl", res.stdout)

    native_flags, native_error = [], ""
    if gpus:
        res = rctx.execute([tool, "--gpus", ",".join(gpus)] + sup_args + ["native"], timeout = 60)
        if res.return_code == 0:
            native_flags = res.stdout.split()
        else:
            native_error = res.stderr.strip()
    else:
        native_error = "no GPU was visible when the CUDA toolchain was configured (%s)" % gpu_source

    torch_list = rctx.os.environ.get("TORCH_CUDA_ARCH_LIST", "")
    if torch_list:
        default_spec, default_source = torch_list, "TORCH_CUDA_ARCH_LIST"
    elif gpus:
        default_spec, default_source = "native", "the GPUs visible at configure time (%s: %s)" % (gpu_source, ", ".join(gpus))
    else:
        default_spec, default_source = DEFAULT_ARCH_SPEC, "the default for machines without TORCH_CUDA_ARCH_LIST or a visible GPU"

    nvcc = detected.get("nvcc", "")
    libs = {}
    if nvcc:
        # The whole directory: nvcc reads nvcc.profile next to the path it was started by, and
        # the profile names its siblings (Debian's g++ wrapper) and $(_HERE_)/.. (the toolkit root).
        nvcc_dir = rctx.path(nvcc).dirname
        rctx.symlink(nvcc_dir, "bin")
        for sub in _TOOLKIT_DIRS:
            child = nvcc_dir.dirname.get_child(sub)
            if child.exists and sub != "include":
                rctx.symlink(child, sub)
        cuobjdump = nvcc_dir.get_child("cuobjdump")
        if not cuobjdump.exists:
            cuobjdump = rctx.which("cuobjdump")
        if cuobjdump:
            rctx.symlink(cuobjdump, "tools/cuobjdump")
        for name, path in (detected.get("libraries") or {}).items():
            rctx.symlink(path, "lib/" + path.split("/")[-1])
            libs[name] = "lib/" + path.split("/")[-1]
        if detected.get("include"):
            rctx.symlink(detected["include"], "include")
    missing = "" if nvcc else detected.get("error", "no CUDA toolkit found")

    rctx.file("config.json", json.encode_indent({
        "nvcc": nvcc,
        "version": detected.get("version", ""),
        "supported": supported,
        "gpus": gpus,
        "gpu_source": gpu_source,
        "torch_cuda_arch_list": torch_list,
        "default_spec": default_spec,
        "native_flags": native_flags,
        "missing": missing,
    }, indent = "  ") + "\n")

    rctx.file("BUILD.bazel", _BUILD.format(
        toolchain_bzl = str(Label("//toolchains:cuda_toolchain.bzl")),
        toolchain_type = str(Label("//toolchains:toolchain_type")),
        nvcc = repr("bin/nvcc") if nvcc else "None",
        missing = repr(missing),
        version = repr(detected.get("version", "")),
        supported = repr(supported),
        gpus = repr(gpus),
        default_spec = repr(default_spec),
        default_source = repr(default_source),
        native_flags = repr(native_flags),
        native_error = repr(native_error),
        cudart_static = repr([libs["cudart_static"]] if "cudart_static" in libs else []),
        cudart_shared = repr([libs["cudart_shared"]] if "cudart_shared" in libs else []),
        cudadevrt = repr([libs["cudadevrt"]] if "cudadevrt" in libs else []),
        headers = 'glob(["include/**"], allow_empty = True)' if detected.get("include") else "[]",
        includes = '["include"]' if detected.get("include") else "[]",
    ))

_BUILD = """# Generated by the rules_cuda_go local_cuda repository rule. See config.json for what was found.
load("{toolchain_bzl}", "cuda_toolchain")
load(":archs.bzl", "ACCEPTED", "TOKENS", "UNSUPPORTED")

package(default_visibility = ["//visibility:public"])

exports_files(["archs.bzl", "config.json"])

# nvcc itself, for genrules (with :toolkit_files as inputs); empty without a toolkit.
filegroup(
    name = "nvcc",
    srcs = glob(["bin/nvcc"], allow_empty = True),
)

# cuobjdump, for tests that inspect what was compiled (absent without a toolkit).
filegroup(
    name = "cuobjdump",
    srcs = glob(["tools/cuobjdump"], allow_empty = True),
)

filegroup(
    name = "toolkit_files",
    srcs = glob(["bin/**", "include/**", "nvvm/**", "lib64/**", "targets/**", "libdevice/**"], allow_empty = True),
)

cuda_toolchain(
    name = "cuda",
    nvcc = {nvcc},
    toolkit_files = [":toolkit_files"],
    missing_message = {missing},
    version = {version},
    supported_codes = {supported},
    gpus = {gpus},
    arch_tokens = TOKENS,
    arch_unsupported = UNSUPPORTED,
    arch_accepted = ACCEPTED,
    default_spec = {default_spec},
    default_source = {default_source},
    native_flags = {native_flags},
    native_error = {native_error},
)

toolchain(
    name = "toolchain",
    toolchain = ":cuda",
    toolchain_type = "{toolchain_type}",
)

cc_library(
    name = "cuda_headers",
    hdrs = {headers},
    includes = {includes},
)

cc_library(
    name = "cudart_static",
    srcs = {cudart_static},
    # What libcudart_static.a itself needs from the system.
    linkopts = ["-ldl", "-lpthread", "-lrt"],
)

cc_library(
    name = "cudart_shared",
    srcs = {cudart_shared},
)

cc_library(
    name = "cudadevrt",
    srcs = {cudadevrt},
)
"""

local_cuda = repository_rule(
    implementation = _local_cuda_impl,
    doc = "Finds the local CUDA toolkit and GPUs; exposes the CUDA toolchain and cc targets for cudart.",
    environ = ["TORCH_CUDA_ARCH_LIST", "CUDA_PATH", "CUDA_HOME"],
    configure = True,
)
