"""cuda_gpus: the GPUs visible when the build is configured, and TORCH_CUDA_ARCH_LIST.

What an arch spec of "auto" means depends on both: TORCH_CUDA_ARCH_LIST when set, else the visible
GPUs ("native"), else the documented default. GPUs come from toolchains/probe, a small cgo
program run as a separate process that loads the driver (libcuda.so.1) with dlopen (building it
needs only a C compiler; without a driver or a GPU it exits with status 1), else from
`nvidia-smi --query-gpu=compute_cap`; any failure means "no GPUs". Changing TORCH_CUDA_ARCH_LIST
re-runs this rule (and the toolkit configurations that read gpus.json).
"""

load(":go.bzl", "go_build", "watch_sources")

def _detect(rctx):
    """Returns (list of "X.Y", how they were found)."""
    res = go_build(rctx, "./toolchains/probe", str(rctx.path("_tools/gpu-probe")), cgo = True)
    if res.return_code == 0:
        probe = rctx.execute([rctx.path("_tools/gpu-probe")], timeout = 60)
        if probe.return_code == 0:
            return [line.strip() for line in probe.stdout.splitlines() if line.strip()], "driver probe"
    smi = rctx.which("nvidia-smi")
    if smi:
        res = rctx.execute([smi, "--query-gpu=compute_cap", "--format=csv,noheader"], timeout = 60)
        if res.return_code == 0:
            return [line.strip() for line in res.stdout.splitlines() if line.strip()], "nvidia-smi"
    return [], "none visible"

def _cuda_gpus_impl(rctx):
    watch_sources(rctx, "toolchains/probe")
    gpus, source = _detect(rctx)
    rctx.file("gpus.json", json.encode_indent({
        "gpus": gpus,
        "gpu_source": source,
        "torch_cuda_arch_list": rctx.os.environ.get("TORCH_CUDA_ARCH_LIST", ""),
    }, indent = "  ") + "\n")
    rctx.file("BUILD.bazel", 'exports_files(["gpus.json"])\n')

cuda_gpus = repository_rule(
    implementation = _cuda_gpus_impl,
    doc = "Records the visible GPUs and TORCH_CUDA_ARCH_LIST in gpus.json.",
    environ = ["TORCH_CUDA_ARCH_LIST"],
    configure = True,
)
