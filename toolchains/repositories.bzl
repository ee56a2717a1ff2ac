"""Declares the CUDA toolkit repositories: used by the `cuda` module extension and the WORKSPACE macro.

Repositories (none downloads anything until a target needs it):
  @cuda                       the hub: @cuda//:<library> aliases and one toolchain per toolkit;
  @cuda_<v>                   the toolchain of pinned version <v> (e.g. @cuda_13_2);
  @cuda_<v>_<component>       one NVIDIA component of it (nvcc, crt, cudart, cccl, cublas, ...);
  @cuda_<v>_<component>_aarch64  its linux-aarch64 (sbsa) target libraries, where pinned;
  @local_cuda                 the toolkit installed on this machine (--cuda_version=local);
  @cuda_tools, @cuda_gpus     the arch resolver, and the GPUs/TORCH_CUDA_ARCH_LIST seen at configure time;
  @rules_cuda_go_clang        the pinned clang (toolchains/clang), fetched only under cuda_compiler=clang.
sysroot_repositories() declares the glibc baseline's:
  @rules_cuda_go_sysroot      the sysroot (pinned Debian packages);
  @rules_cuda_go_cc           the C++ toolchain: the host's GCC with that sysroot;
  @rules_cuda_go_aarch64_cc   the linux-aarch64 cross toolchain: Debian's cross GCC with the same
                              baseline's arm64 sysroot (toolchains/cross).
"""

load("//toolchains:versions.bzl", "CUDA_TOOLKITS")
load("//toolchains/private:clang_repository.bzl", "clang_repository")
load("//toolchains/private:components.bzl", "cross_component_deps")
load("//toolchains/private:cross_cc_repository.bzl", "cross_cc_repository")
load("//toolchains/private:cuda_component.bzl", "cuda_component")
load("//toolchains/private:cuda_gpus.bzl", "cuda_gpus")
load("//toolchains/private:cuda_hub.bzl", "cuda_hub")
load("//toolchains/private:cuda_redist_manifest.bzl", _cuda_redist_manifest = "cuda_redist_manifest")
load("//toolchains/private:cuda_toolkit_config.bzl", "cuda_toolkit_config")
load("//toolchains/private:cuda_tools.bzl", "cuda_tools")
load("//toolchains/private:glibc_sysroot.bzl", "glibc_sysroot")
load("//toolchains/private:host_cc_repository.bzl", "host_cc_repository")
load("//toolchains/private:local_cuda.bzl", "local_cuda")

# WORKSPACE mode's counterpart of the cuda extension's redist tag (rules/deps.bzl re-exports it).
cuda_redist_manifest = _cuda_redist_manifest

# What every toolkit needs to compile anything.
_REQUIRED = ["nvcc", "crt", "cudart", "cccl"]

def repo_prefix(version):
    """@cuda_13_2 for "13.2"; other characters than letters, digits and '.' become '_'."""
    return "cuda_" + "".join([c if c.isalnum() else "_" for c in version.elems()])

def cuda_toolkit_repositories(toolkits = CUDA_TOOLKITS, extra = {}, mirrors = [], aliases = {}):
    """Declares every repository above; returns the names of those users may refer to.

    Args:
      toolkits: version -> {nvcc_version, supported, components: {component: [archive]}}
        (versions.bzl's CUDA_TOOLKITS).
      extra: more toolkits of the same shape (from redist manifests), with a "toolkit" name.
      mirrors: URL prefixes tried before each archive's own URL.
      aliases: more names for @cuda targets, name -> hub target name (rules_cuda's WORKSPACE
        macros give its names: @cuda//:cuda_runtime_static for @cuda//:cudart_static, ...).

    Returns:
      The repository names: cuda, local_cuda, rules_cuda_go_clang, and @cuda_<v> for every version.
    """
    clang_repository(name = "rules_cuda_go_clang")
    cuda_tools(name = "cuda_tools")
    cuda_gpus(name = "cuda_gpus")
    local_cuda(name = "local_cuda", tools = "@cuda_tools//:cuda-archs", gpus = "@cuda_gpus//:gpus.json")
    hub = {"local": {"config": "local_cuda", "toolkit": "the local CUDA toolkit", "components": {}}}
    all_toolkits = dict(toolkits)
    all_toolkits.update(extra)
    names = ["cuda", "local_cuda", "rules_cuda_go_clang"]
    for version, spec in all_toolkits.items():
        if version == "local":
            fail("rules_cuda_go: 'local' is the name of the machine's own toolkit; name the toolkit differently")
        missing = [c for c in _REQUIRED if c not in spec["components"]]
        if missing:
            fail("rules_cuda_go: CUDA toolkit %s lacks the components %s (every toolkit needs %s)" % (version, ", ".join(missing), ", ".join(_REQUIRED)))
        prefix = repo_prefix(version)
        toolkit = spec.get("toolkit", "CUDA %s (pinned in rules_cuda_go's versions.bzl)" % version)
        repos = {c: prefix + "_" + c for c in spec["components"]}
        for component, archives in spec["components"].items():
            cuda_component(
                name = repos[component],
                component = component,
                toolkit = toolkit,
                archives = [json.encode(a) for a in archives],
                mirrors = mirrors,
                crt = "@%s//:headers" % repos["crt"],
                cccl = "@%s//:headers" % repos["cccl"],
                cuda_headers = "@%s//:cuda_headers" % repos["cudart"],
                dep_labels = cross_component_deps(component),
            )

        # linux-aarch64's target libraries (versions.bzl's components_aarch64), beside them:
        # @cuda_<v>_<component>_aarch64. Headers-only components and the programs stay the x86-64
        # ones (the hub picks per target platform).
        repos_aarch64 = {c: prefix + "_" + c + "_aarch64" for c in spec.get("components_aarch64", {})}
        for component, archives in spec.get("components_aarch64", {}).items():
            cuda_component(
                name = repos_aarch64[component],
                component = component,
                toolkit = toolkit + " for linux-aarch64",
                archives = [json.encode(a) for a in archives],
                mirrors = mirrors,
                crt = "@%s//:headers" % repos["crt"],
                cccl = "@%s//:headers" % repos["cccl"],
                cuda_headers = "@%s//:cuda_headers" % repos_aarch64.get("cudart", repos["cudart"]),
                dep_labels = cross_component_deps(component),
            )
        cuda_toolkit_config(
            name = prefix,
            toolkit = toolkit,
            nvcc_version = spec.get("nvcc_version", ""),
            supported = spec.get("supported", []),
            repos = repos,
            repos_aarch64 = repos_aarch64,
            nvcc_file = "@%s//:bin/nvcc" % repos["nvcc"],
            tools = "@cuda_tools//:cuda-archs",
            gpus = "@cuda_gpus//:gpus.json",
        )
        hub[version] = {"config": prefix, "toolkit": toolkit, "components": repos, "components_aarch64": repos_aarch64}
        names.append(prefix)
    cuda_hub(name = "cuda", toolkits = json.encode(hub), aliases = aliases)
    return names

def sysroot_repositories():
    """Declares the glibc baseline's sysroot and C++ toolchain repositories; returns their names.

    Both are fetched only when toolchains/sysroot's toolchain is selected (the default on Linux
    x86_64 unless --@rules_cuda_go//toolchains:sysroot=false); the aarch64 cross toolchain's only
    when a build targets linux-aarch64.

    Returns:
      The repository names.
    """
    glibc_sysroot(name = "rules_cuda_go_sysroot")
    host_cc_repository(name = "rules_cuda_go_cc", sysroot = "@rules_cuda_go_sysroot//:BUILD.bazel")
    cross_cc_repository(name = "rules_cuda_go_aarch64_cc")
    return ["rules_cuda_go_aarch64_cc", "rules_cuda_go_cc", "rules_cuda_go_sysroot"]
