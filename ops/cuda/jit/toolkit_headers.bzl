"""toolkit_headers: the CUDA toolkit's headers in the runfiles, for NVRTC at run time."""

load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")

def _rlocation(ctx, path):
    """The runfiles path of an execroot-relative directory or file path."""
    if path.startswith("bazel-out/"):
        path = path.split("/", 3)[3] if path.count("/") >= 3 else ""
    if path.startswith("external/"):
        return path[len("external/"):]
    return ctx.workspace_name + "/" + path

def _file_rlocation(ctx, f):
    if f.short_path.startswith("../"):
        return f.short_path[len("../"):]
    return ctx.workspace_name + "/" + f.short_path

def _toolkit_headers_impl(ctx):
    headers = depset(transitive = [d[CcInfo].compilation_context.headers for d in ctx.attr.deps])
    dirs = {}
    for d in ctx.attr.deps:
        cc = d[CcInfo].compilation_context
        for p in cc.system_includes.to_list() + cc.includes.to_list():
            dirs[_rlocation(ctx, p)] = True

    # Keep the directories that hold headers (the bin-directory twins of source directories hold
    # none), in the deps' order: CCCL's include/cccl before the toolkit's include.
    files = [_file_rlocation(ctx, f) for f in headers.to_list()]
    kept = [d for d in dirs if d and [f for f in files if f.startswith(d + "/")]]
    out = ctx.actions.declare_file(ctx.label.name + ".txt")
    ctx.actions.write(out, "".join([d + "\n" for d in kept]))
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out], transitive_files = headers))]

toolkit_headers = rule(
    implementation = _toolkit_headers_impl,
    doc = """Puts the headers of `deps` (the toolkit's CCCL and runtime headers) into the runfiles and
writes NAME.txt, their include directories as runfiles paths, one a line, for NVRTC's -I at run time.""",
    attrs = {
        "deps": attr.label_list(providers = [CcInfo], doc = "cc_library targets of headers, e.g. @cuda//:cccl."),
    },
)
