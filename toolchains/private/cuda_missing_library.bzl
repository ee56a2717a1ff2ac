"""cuda_missing_library: stands in for a CUDA library that the selected toolkit does not have."""

load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")

def _cuda_missing_library_impl(ctx):
    fail("%s: %s" % (ctx.label, ctx.attr.message))

cuda_missing_library = rule(
    implementation = _cuda_missing_library_impl,
    doc = """Fails at analysis time with a message naming the library and the toolkit that lacks it.

@cuda//:<name> resolves to one of these when the toolkit selected by
--@rules_cuda_go//toolchains:cuda_version has no such library (e.g. a static library that
NVIDIA's wheels do not ship, or a library a local toolkit did not install). Targets that do not
depend on it are unaffected.""",
    attrs = {
        "message": attr.string(mandatory = True, doc = "What is missing, in which toolkit, and what to do."),
    },
    provides = [CcInfo],
)
