"""cuda_device_library: a static CUDA library whose device code the device link must see."""

load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")
load("//common:providers.bzl", "CuInfo")

def _cuda_device_library_impl(ctx):
    return [
        ctx.attr.library[CcInfo],
        CuInfo(
            rdc_objects = depset(),
            rdc_libraries = depset(ctx.files.archives),
            rdc_archs = depset(),
            device_linked = depset(),
        ),
    ]

cuda_device_library = rule(
    implementation = _cuda_device_library_impl,
    doc = """A static library with relocatable device code (libcufft_static.a: cuFFT's kernels and its
callback hooks): its CcInfo for the host link, and its archives in CuInfo.rdc_libraries so that the
first cu_library, cu_device_link or go_cuda_library above it passes them to nvcc -dlink.""",
    attrs = {
        "library": attr.label(mandatory = True, providers = [CcInfo], doc = "The cc_library of the archives."),
        "archives": attr.label_list(allow_files = [".a"], doc = "The archives the device link reads."),
    },
    provides = [CcInfo, CuInfo],
)
