"""sysroot_cc_toolchain: the host's GCC, compiling and linking against the glibc baseline's sysroot.

Declared by the BUILD file that host_cc_repository writes, with what it found on the machine (the
compiler, binutils, the compiler's own include directories). The rest is fixed here:
- the include path is the one GCC uses with --sysroot, spelled out (-nostdinc, then -isystem for the
  C++ headers and -idirafter for the rest, in GCC's order): GCC turns a relative --sysroot into an
  absolute path, so headers found through it would be named by their sandbox path, which Bazel's
  inclusion check cannot match against the toolchain's built-in directories. C headers come from
  the sysroot; the C++ headers and the compiler's own headers from the compiler. stdc-predef.h,
  which GCC includes implicitly from its standard directories, is included explicitly;
- `--sysroot` (the toolchain's builtin_sysroot) for every link, and for nvcc's host compiler;
- -B and -L put the sysroot's crt files and libraries ahead of the host's (Debian's GCC finds its
  multiarch startfiles outside the sysroot otherwise);
- the sysroot's files are inputs of every compile and link action, so sandboxed and remote actions
  see exactly them.
The flags otherwise match those of Bazel's auto-configured toolchain for GCC, so switching between
the two (--@rules_cuda_go//toolchains:sysroot) changes the C library and nothing else.
"""

load("@bazel_tools//tools/cpp:unix_cc_toolchain_config.bzl", "cc_toolchain_config")
load("@rules_cc//cc/toolchains:cc_toolchain.bzl", "cc_toolchain")
load("//toolchains/sysroot:identity.bzl", "BASELINE_TOOLCHAIN_ID_PREFIX")

def sysroot_cc_toolchain(name, sysroot, gcc, gcc_version, tool_paths, include_directories, cpu = "k8", triplet = "x86_64-linux-gnu", tool_dir = ""):
    """Declares NAME (a cc_toolchain) and its configuration.

    Args:
      name: the cc_toolchain's name.
      sysroot: label of the sysroot's `sysroot` filegroup (its package is the sysroot's root).
      gcc: absolute path of the host's gcc.
      gcc_version: its version ("12.2.0"), for the toolchain identifier.
      tool_paths: tool name -> absolute path (ar, ld, nm, objcopy, objdump, strip, cpp, gcov, dwp,
        c++filt, llvm-cov, llvm-profdata; /bin/false for what the machine lacks).
      include_directories: the compiler's include search path with --sysroot, directories inside
        the sysroot written as %sysroot%/....
      cpu: Bazel's name of the target CPU (k8, aarch64).
      triplet: the target's multiarch directory (x86_64-linux-gnu, aarch64-linux-gnu).
      tool_dir: a directory inside the sysroot's repository, relative to it, where the compiler
        finds its assembler and linker (-B); empty: on PATH (the host's binutils).
    """
    root = native.package_relative_label(sysroot).workspace_root
    cxx_include_flags, include_flags = [], ["-nostdinc"]
    for d in include_directories:
        path = root + d[len("%sysroot%"):] if d.startswith("%sysroot%/") else d
        if "/c++/" in d:
            cxx_include_flags.extend(["-isystem", path])
        else:
            include_flags.extend(["-idirafter", path])
    include_flags.extend(["-include", root + "/usr/include/stdc-predef.h"])
    b_flags = ["-B%s/%s/" % (root, tool_dir)] if tool_dir else []
    paths = dict(tool_paths)
    paths["gcc"] = gcc
    cc_toolchain_config(
        name = name + "_config",
        cpu = cpu,
        compiler = "gcc",
        toolchain_identifier = BASELINE_TOOLCHAIN_ID_PREFIX + gcc_version,
        host_system_name = "local",
        target_system_name = triplet,
        target_libc = "glibc",
        abi_version = "gcc",
        abi_libc_version = "glibc",
        builtin_sysroot = root,
        cxx_builtin_include_directories = include_directories,
        tool_paths = paths,
        compile_flags = b_flags + include_flags + [
            "-fstack-protector",
            "-Wall",
            "-Wunused-but-set-parameter",
            "-Wno-free-nonheap-object",
            "-fno-omit-frame-pointer",
        ],
        opt_compile_flags = [
            "-g0",
            "-O2",
            "-D_FORTIFY_SOURCE=1",
            "-DNDEBUG",
            "-ffunction-sections",
            "-fdata-sections",
        ],
        dbg_compile_flags = ["-g"],
        cxx_flags = cxx_include_flags + ["-std=c++14"],
        link_flags = b_flags + [
            # The sysroot's Scrt1.o/crti.o/crtn.o, and its libraries before the host's.
            "-B%s/usr/lib/%s/" % (root, triplet),
            "-L%s/usr/lib/%s" % (root, triplet),
            "-L%s/lib/%s" % (root, triplet),
            "-Wl,-no-as-needed",
            "-Wl,-z,relro,-z,now",
            "-pass-exit-codes",
        ],
        link_libs = [
            "-Wl,--push-state,-as-needed",
            "-lstdc++",
            "-Wl,--pop-state",
            "-Wl,--push-state,-as-needed",
            "-lm",
            "-Wl,--pop-state",
        ],
        opt_link_flags = ["-Wl,--gc-sections"],
        unfiltered_compile_flags = [
            "-fno-canonical-system-headers",
            "-Wno-builtin-macro-redefined",
            "-D__DATE__=\"redacted\"",
            "-D__TIMESTAMP__=\"redacted\"",
            "-D__TIME__=\"redacted\"",
        ],
        coverage_compile_flags = ["--coverage"],
        coverage_link_flags = ["--coverage"],
        supports_start_end_lib = False,
    )
    native.filegroup(name = name + "_empty", srcs = [])

    # The host's binutils need no inputs; those inside the repository (tool_dir) do.
    tools = sysroot if tool_dir else name + "_empty"
    cc_toolchain(
        name = name,
        toolchain_identifier = BASELINE_TOOLCHAIN_ID_PREFIX + gcc_version,
        toolchain_config = name + "_config",
        all_files = sysroot,
        ar_files = tools,
        as_files = sysroot,
        compiler_files = sysroot,
        dwp_files = tools,
        linker_files = sysroot,
        objcopy_files = tools,
        strip_files = tools,
        supports_param_files = True,
    )
