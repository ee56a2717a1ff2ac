"""Toolkits from NVIDIA's redistributable archives (a redistrib_<version>.json manifest).

The manifest (what developer.download.nvidia.com/compute/cuda/redist/ publishes, and what
rules_cuda reads) lists each component's archive per platform with its sha256. This maps the
linux-x86_64 archives onto the components of versions.bzl, so a redist toolkit gets the same
repositories and @cuda//: targets as a pinned one.
"""

# NVIDIA's component names -> ours. A component can take several archives (CUDA 13 splits the
# compiler into cuda_nvcc and libnvvm); "crt" falls back to the nvcc archive, which carries
# include/crt/ before CUDA 13.
_COMPONENTS = {
    "cuda_nvcc": "nvcc",
    "libnvvm": "nvcc",
    "cuda_crt": "crt",
    "cuda_cudart": "cudart",
    "cuda_cccl": "cccl",
    "cuda_nvrtc": "nvrtc",
    "libnvjitlink": "nvjitlink",
    "cuda_nvtx": "nvtx",
    "libcublas": "cublas",
    "libcufft": "cufft",
    "libcurand": "curand",
    "libcusparse": "cusparse",
    "libcusolver": "cusolver",
    "cuda_cuobjdump": "cuobjdump",
}

_PLATFORM = "linux-x86_64"

def toolkit_from_redist(manifest, base_url, name):
    """Returns a toolkit spec (the shape of versions.bzl's entries) for a parsed manifest.

    Args:
      manifest: the decoded redistrib JSON.
      base_url: the URL the manifest's relative_path entries are relative to (ends with '/').
      name: what to call the toolkit in messages.
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
    if "crt" not in components and "nvcc" in components:
        components["crt"] = [components["nvcc"][0]]
    return {
        "toolkit": "%s (NVIDIA redist, %s)" % (name, manifest.get("release_label", "unknown release")),
        "nvcc_version": nvcc_version,
        "supported": [],
        "components": components,
    }
