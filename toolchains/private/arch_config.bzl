"""The arch-spec part of a toolkit's configuration, shared by pinned and local toolkits."""

# Used when TORCH_CUDA_ARCH_LIST is unset and no GPU is visible: Ampere and Hopper, with PTX for
# newer GPUs to JIT from. Documented in docs/archs.md.
DEFAULT_ARCH_SPEC = "8.0;9.0+PTX"

def words(text):
    """text split at whitespace, empty pieces dropped (Starlark's split() needs a separator)."""
    for ws in ["\t", "\r", "\n"]:
        text = text.replace(ws, " ")
    return [w for w in text.split(" ") if w]

def configure_archs(rctx, tool, gpus_json, supported, toolkit = ""):
    """Writes archs.bzl (the resolver's token table for this nvcc) and returns what "auto" means.

    Args:
      rctx: the repository_ctx.
      tool: path of the cuda-archs binary.
      gpus_json: path of cuda_gpus' gpus.json.
      supported: the codes this nvcc supports (nvcc --list-gpu-code, and the arch- and
        family-specific codes it accepts), or [] when unknown.
      toolkit: the toolkit's name, for the error of an arch it cannot build ("CUDA 13.5 (pinned
        in rules_cuda_go's versions.bzl)").

    Returns:
      A dict with default_spec, default_source, native_flags, native_error, gpus, gpu_source and
      torch_cuda_arch_list, for the toolchain and config.json.
    """
    detected = json.decode(rctx.read(gpus_json))
    gpus = detected["gpus"]
    sup_args = ["--supported", ",".join(supported)] if supported else []
    if toolkit:
        sup_args += ["--toolkit", toolkit]

    res = rctx.execute([tool, "--bzl"] + sup_args, timeout = 60)
    if res.return_code != 0:
        fail("rules_cuda_go: cuda-archs --bzl failed:\n" + res.stderr)
    rctx.file("archs.bzl", res.stdout)

    native_flags, native_error = [], ""
    if gpus:
        res = rctx.execute([tool, "--gpus", ",".join(gpus)] + sup_args + ["native"], timeout = 60)
        if res.return_code == 0:
            native_flags = words(res.stdout)
        else:
            native_error = res.stderr.strip()
    else:
        native_error = "no GPU was visible when the CUDA toolchain was configured (%s)" % detected["gpu_source"]

    torch_list = detected["torch_cuda_arch_list"]
    if torch_list:
        default_spec, default_source = torch_list, "TORCH_CUDA_ARCH_LIST"
    elif gpus:
        default_spec, default_source = "native", "the GPUs visible at configure time (%s: %s)" % (detected["gpu_source"], ", ".join(gpus))
    else:
        default_spec, default_source = DEFAULT_ARCH_SPEC, "the default for machines without TORCH_CUDA_ARCH_LIST or a visible GPU"
    return {
        "default_spec": default_spec,
        "default_source": default_source,
        "native_flags": native_flags,
        "native_error": native_error,
        "gpus": gpus,
        "gpu_source": detected["gpu_source"],
        "torch_cuda_arch_list": torch_list,
    }
