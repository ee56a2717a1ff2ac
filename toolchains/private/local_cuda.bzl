"""local_cuda: the CUDA toolkit installed on this machine (--@rules_cuda_go//toolchains:cuda_version=local).

Detection and rendering are separate. _detect() runs `cuda-archs --detect` (package
toolchains/toolkit: CUDA_PATH, CUDA_HOME, PATH, /usr/local/cuda, Debian's layout) and links what it
found into this repository with the layout of a downloaded toolkit (bin/, nvvm/, include/, lib/),
so the BUILD file is a single call of cuda_local_targets() (local_targets.bzl) with the same
target names as @cuda_<version>_<component>. CUDA_PATH and CUDA_HOME are declared, so changing
them re-runs this rule; so does `bazel fetch --configure --force`.
"""

load(":arch_config.bzl", "configure_archs")
load(":driver_stub.bzl", "write_driver_stub", "write_nvml_stub")

# Directories of a toolkit root that nvcc reads through its nvcc.profile ($(_HERE_)/..).
_TOOLKIT_DIRS = ["nvvm", "lib64", "targets", "libdevice"]

def _link_library(rctx, path):
    """Links path and its versioned siblings (libX.so.N, the sonames programs load) into lib/."""
    p = rctx.path(path)
    base = p.basename
    rctx.symlink(p, "lib/" + base)
    if ".so" in base:
        stem = base[:base.index(".so") + 3]
        for sibling in p.dirname.readdir():
            if sibling.basename.startswith(stem + ".") and sibling.basename != base:
                rctx.symlink(sibling, "lib/" + sibling.basename)

def _detect(rctx, tool):
    """Finds the toolkit and links it into the repository; returns a struct describing it."""
    env = {k: rctx.os.environ[k] for k in ["CUDA_PATH", "CUDA_HOME", "PATH"] if k in rctx.os.environ}
    res = rctx.execute([tool, "--detect"], environment = env, timeout = 120)
    if res.return_code != 0:
        fail("rules_cuda_go: cuda-archs --detect failed:\n" + res.stderr)
    found = json.decode(res.stdout)
    nvcc = found.get("nvcc", "")
    if not nvcc:
        return struct(
            nvcc = "",
            found = found,
            has_include = False,
            has_stub = False,
            has_nvml_stub = False,
            tools = [],
            missing = found.get("error", "no CUDA toolkit found"),
        )

    # The whole bin directory: nvcc reads nvcc.profile next to the path it was started by, and the
    # profile names its siblings (Debian's g++ wrapper) and $(_HERE_)/.. (the toolkit root).
    nvcc_dir = rctx.path(nvcc).dirname
    rctx.symlink(nvcc_dir, "bin")
    for sub in _TOOLKIT_DIRS:
        child = nvcc_dir.dirname.get_child(sub)
        if child.exists:
            rctx.symlink(child, sub)
    include = found.get("include", "")
    has_include = bool(include) and include != "/usr/include"
    if has_include:
        rctx.symlink(include, "include")
    elif include:
        # Debian keeps the CUDA headers in /usr/include, among the C library's. The host compiler
        # does not search it under the glibc baseline's --sysroot, so include/ links the entries
        # of /usr/include that the toolkit's packages own (cuda_runtime.h, crt/, thrust/, ...).
        has_include = _link_debian_headers(rctx)
    for path in (found.get("libraries") or {}).values():
        _link_library(rctx, path)
    tools = []
    for tool in _TOOLS:
        path = (found.get("cuobjdump", "") if tool == "cuobjdump" else "") or _find_tool(rctx, nvcc_dir, tool)
        if path:
            rctx.symlink(path, "tools/" + tool)
            tools.append(tool)
    has_stub = bool(include) and write_driver_stub(rctx, rctx.path(include).get_child("cuda.h"))
    has_nvml_stub = bool(include) and write_nvml_stub(rctx, rctx.path(include).get_child("nvml.h"))
    return struct(
        nvcc = nvcc,
        found = found,
        has_include = has_include,
        has_stub = has_stub,
        has_nvml_stub = has_nvml_stub,
        tools = tools,
        missing = "",
    )

# The toolkit's programs that @cuda//:<name> offers (name with '-' as '_').
_TOOLS = ["cuobjdump", "nvdisasm", "compute-sanitizer", "tileiras"]

def _find_tool(rctx, nvcc_dir, tool):
    """tool beside nvcc, in the toolkit root's compute-sanitizer/ directory, or on PATH."""
    for p in [nvcc_dir.get_child(tool), nvcc_dir.dirname.get_child(tool).get_child(tool)]:
        if p.exists and not p.is_dir:
            return p
    return rctx.which(tool)

# Lists the top-level entries of /usr/include owned by Debian's CUDA packages: those built from the
# nvidia-cuda-toolkit source, and CCCL's three (libthrust-dev, libcub-dev, libcu++-dev, built from the
# libthrust, cub and libcudacxx sources), so <thrust/...>, <cub/...> and <cuda/std/...> resolve as with
# plain nvcc.
_DEBIAN_HEADERS = r"""
pkgs=$(dpkg-query -W -f='${Package} ${source:Package}\n' 2>/dev/null |
  awk '$2 ~ /^(nvidia-cuda-toolkit|libthrust|cub|libcudacxx)$/ {print $1}')
[ -n "$pkgs" ] || exit 0
# shellcheck disable=SC2086
dpkg-query -L $pkgs 2>/dev/null | grep -E '^/usr/include/[^/]+$' | sort -u
"""

def _link_debian_headers(rctx):
    res = rctx.execute(["/bin/sh", "-c", _DEBIAN_HEADERS])
    entries = [e for e in res.stdout.splitlines() if e]
    if res.return_code != 0 or not [e for e in entries if e.endswith("/cuda_runtime.h")]:
        return False
    for e in entries:
        rctx.symlink(e, "include/" + e[len("/usr/include/"):])
    return True

def _local_cuda_impl(rctx):
    tk = _detect(rctx, rctx.path(rctx.attr.tools))
    toolkit = "the local CUDA toolkit (%s, nvcc %s)" % (tk.nvcc, tk.found.get("version", "")) if tk.nvcc else "the local CUDA toolkit (none found)"
    archs = configure_archs(rctx, rctx.path(rctx.attr.tools), rctx.path(rctx.attr.gpus), tk.found.get("supported") or [], toolkit)
    rctx.file("config.json", json.encode_indent(dict(
        toolkit = toolkit,
        nvcc = tk.nvcc,
        version = tk.found.get("version", ""),
        supported = tk.found.get("supported") or [],
        missing = tk.missing,
        **archs
    ), indent = "  ") + "\n")
    rctx.template("BUILD.bazel", rctx.attr._template, {
        "%{local_targets}": str(Label("//toolchains/private:local_targets.bzl")),
        "%{args}": ",\n    ".join(["%s = %r" % kv for kv in [
            ("toolkit", toolkit),
            ("available", bool(tk.nvcc)),
            ("missing_message", tk.missing),
            ("version", tk.found.get("version", "")),
            ("has_include", tk.has_include),
            ("has_stub", tk.has_stub),
            ("has_nvml_stub", tk.has_nvml_stub),
            ("tools", tk.tools),
            ("default_spec", archs["default_spec"]),
            ("default_source", archs["default_source"]),
            ("native_flags", archs["native_flags"]),
            ("native_error", archs["native_error"]),
        ]]),
    })

local_cuda = repository_rule(
    implementation = _local_cuda_impl,
    doc = "The CUDA toolkit found on this machine, with the same targets as a pinned toolkit.",
    attrs = {
        "tools": attr.label(mandatory = True, doc = "cuda_tools' cuda-archs."),
        "gpus": attr.label(mandatory = True, doc = "cuda_gpus' gpus.json."),
        "_template": attr.label(default = Label("//toolchains/private:local_cuda.BUILD.tpl")),
    },
    environ = ["CUDA_PATH", "CUDA_HOME"],
    configure = True,
)
