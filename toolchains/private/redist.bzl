"""Toolkits from NVIDIA's redistributable archives (a redistrib_<version>.json manifest).

The manifest (what developer.download.nvidia.com/compute/cuda/redist/ publishes, and what
rules_cuda reads) lists each component's archive per platform with its sha256. This maps the
linux-x86_64 archives onto the components of versions.bzl, so a redist toolkit gets the same
repositories and @cuda//: targets as a pinned one.
"""

# NVIDIA's component names -> ours. A component can take several archives (CUDA 13 splits the
# compiler into cuda_nvcc and libnvvm; the profiler API's headers and libculibos.a join the runtime,
# so that every compile sees cuda_profiler_api.h as with a full install); "crt" falls back to the
# nvcc archive, which carries include/crt/ before CUDA 13, and "nvptxcompiler" too (CUDA 12's
# cuda_nvcc holds libnvptxcompiler_static.a).
_COMPONENTS = {
    "cuda_nvcc": "nvcc",
    "libnvvm": "nvcc",
    "cuda_crt": "crt",
    "cuda_cudart": "cudart",
    "cuda_culibos": "cudart",
    "cuda_profiler_api": "cudart",
    "cuda_cccl": "cccl",
    "cuda_nvrtc": "nvrtc",
    "libnvjitlink": "nvjitlink",
    "libnvptxcompiler": "nvptxcompiler",
    "libnvfatbin": "nvfatbin",
    "cuda_nvtx": "nvtx",
    "libcublas": "cublas",
    "libcufft": "cufft",
    "libcurand": "curand",
    "libcusparse": "cusparse",
    "libcusolver": "cusolver",
    "libnpp": "npp",
    "libnvjpeg": "nvjpeg",
    "libcufile": "cufile",
    "cuda_cupti": "cupti",
    "cuda_nvml_dev": "nvml",
    "cuda_opencl": "opencl",
    "cuda_sanitizer_api": "sanitizer",
    "cuda_cuobjdump": "cuobjdump",
    "cuda_nvdisasm": "nvdisasm",
}

_PLATFORM = "linux-x86_64"

def read_redist_manifest(ctx, what, manifest = "", manifest_file = None, sha256 = "", base_url = "", output = "redist_manifest.json"):
    """Reads a redist manifest from a label or a URL; returns (decoded JSON, base URL).

    Shared by the `cuda` module extension (ctx: module_ctx) and the cuda_redist_manifest
    repository rule (ctx: repository_ctx).

    Args:
      ctx: a module_ctx or repository_ctx.
      what: how to name the caller in messages, e.g. 'cuda.redist(name = "12.8")'.
      manifest: URL of the manifest.
      manifest_file: the manifest as a label (takes precedence over manifest).
      sha256: sha256 of the manifest downloaded from `manifest`.
      base_url: what relative_path entries are relative to; default: the manifest's directory
        (file://<directory>/ for manifest_file).
      output: where a downloaded manifest is written.

    Returns:
      (the decoded manifest, the base URL ending with '/').
    """
    if base_url and not base_url.endswith("/"):
        base_url += "/"
    if manifest_file:
        path = ctx.path(manifest_file)
        return json.decode(ctx.read(path)), base_url or "file://%s/" % path.dirname
    if not manifest:
        fail("%s: give manifest (a URL) or manifest_file (a label)" % what)
    ctx.download(url = manifest, output = output, sha256 = sha256)
    return json.decode(ctx.read(output)), base_url or manifest.rpartition("/")[0] + "/"

def toolkit_from_redist(manifest, base_url, name):
    """Returns a toolkit spec (the shape of versions.bzl's entries) for a parsed manifest.

    Args:
      manifest: the decoded redistrib JSON.
      base_url: the URL the manifest's relative_path entries are relative to (ends with '/').
      name: what to call the toolkit in messages.

    Returns:
      A dict with toolkit, nvcc_version, supported (empty: ask nvcc) and components.
    """
    components = {}
    nvcc_version = ""
    for nv_name in sorted(_COMPONENTS.keys()):
        entry = manifest.get(nv_name)
        if type(entry) != "dict" or _PLATFORM not in entry:
            continue
        archive = entry[_PLATFORM]
        path = archive["relative_path"]
        file = path.split("/")[-1]
        strip = file
        for ext in [".tar.xz", ".tar.gz", ".zip"]:
            strip = strip.removesuffix(ext)
        components.setdefault(_COMPONENTS[nv_name], []).append({
            "url": base_url + path,
            "sha256": archive["sha256"],
            "strip_prefix": strip,
        })
        if nv_name == "cuda_nvcc":
            nvcc_version = entry.get("version", "")
    for fallback in ["crt", "nvptxcompiler"]:
        if fallback not in components and "nvcc" in components:
            components[fallback] = [components["nvcc"][0]]
    return {
        "toolkit": "%s (NVIDIA redist, %s)" % (name, manifest.get("release_label", "unknown release")),
        "nvcc_version": nvcc_version,
        "supported": [],
        "components": components,
    }
