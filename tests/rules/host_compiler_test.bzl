"""Unit tests for the host-compiler flags nvcc gets from the C++ toolchain."""

load("@bazel_skylib//lib:unittest.bzl", "asserts", "unittest")
load("//common:host_compiler.bzl", "abi_flags")

def _abi_flags_test_impl(ctx):
    env = unittest.begin(ctx)
    asserts.equals(
        env,
        ["--sysroot=/s", "-m64", "-march=x86-64-v2", "-target", "x86_64-linux-gnu", "-D_GLIBCXX_USE_CXX11_ABI=0", "-B", "/tc/bin"],
        abi_flags([
            "-U_FORTIFY_SOURCE",
            "--sysroot=/s",
            "-Wall",
            "-m64",
            "-MD",
            "-MF",
            "x.d",
            "-march=x86-64-v2",
            "-target",
            "x86_64-linux-gnu",
            "-O2",
            "-D_GLIBCXX_USE_CXX11_ABI=0",
            "-DNDEBUG",
            "-B",
            "/tc/bin",
            # The include path stays the host compiler's own (under --sysroot): the glibc
            # baseline toolchain's spelled-out path names one GCC version's C++ headers.
            "-nostdinc",
            "-idirafter",
            "/s/usr/include",
            "-isystem",
            "/usr/include/c++/12",
            "-include",
            "/s/usr/include/stdc-predef.h",
            "-nostdinc++",
            "-fno-omit-frame-pointer",
        ]),
    )
    asserts.equals(env, [], abi_flags(["-Wall", "-g0", "-O2", "-std=c++17"]))
    return unittest.end(env)

abi_flags_test = unittest.make(_abi_flags_test_impl)
