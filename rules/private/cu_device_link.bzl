"""cu_device_link: the one device link of the relocatable device code below it, for a binary."""

load("@rules_cc//cc/common:cc_common.bzl", "cc_common")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")
load("//common:host_compiler.bzl", "host_compiler")
load("//common:providers.bzl", "CuInfo")
load(":device_link.bzl", "absorb", "check_archs", "check_linked_once", "collect", "linked_info", "part_archs", "real_archs", "without_device_links", device_link = "link")
load(":toolchain.bzl", "CUDA_ATTRS", "CUDA_TOOLCHAINS", "build_cuda", "find_cuda", "target_archs")

def _cu_device_link_impl(ctx):
    cc_info = cc_common.merge_cc_infos(cc_infos = [d[CcInfo] for d in ctx.attr.deps])

    # The deps' runfiles (the CUDA shared libraries' soname files: see cu_library).
    runfiles = ctx.runfiles().merge_all([d[DefaultInfo].default_runfiles for d in ctx.attr.deps])
    pending = collect(ctx.label, ctx.attr.deps, [], [])
    if not build_cuda(ctx) or not (pending.objects or pending.libraries):
        # Nothing to link (no rdc parts below, or --config=cpu): the deps as they are.
        err = check_linked_once(ctx.label, pending)
        if err:
            fail(err)
        return [DefaultInfo(runfiles = runfiles), cc_info, linked_info(pending)]

    # The code that rdc targets below device-linked themselves is linked here again (see absorb).
    pending = absorb(pending)

    cuda = find_cuda(ctx, "cu_device_link")
    if not cuda.cudadevrt:
        fail("cu_device_link %s: relocatable device code needs libcudadevrt.a, which %s lacks." % (ctx.label, cuda.toolkit))

    # The link produces SASS for every arch a part was built for; each part must have all of them.
    link_archs = sorted({a: True for archs in part_archs(pending).values() for a in archs}.keys())
    if link_archs:
        gencode = ["-gencode=arch=compute_%s,code=%s" % (a[len("sm_"):], a) for a in link_archs]
    else:
        # Only static libraries to link (no rdc parts name archs): the archs of --cuda_archs.
        gencode, _ = target_archs(ctx, cuda, "cu_device_link")
        link_archs = real_archs(gencode)
    err = check_archs(ctx.label, pending, link_archs)
    if err:
        fail(err)

    host = host_compiler(ctx, cuda)
    dlink = device_link(ctx, cuda, host, pending, gencode)
    linking_context, _ = cc_common.create_linking_context_from_compilation_outputs(
        actions = ctx.actions,
        name = ctx.label.name,
        feature_configuration = host.feature_configuration,
        cc_toolchain = host.cc_toolchain,
        # The device-link object with the parts' objects, in one archive: see device_link.bzl's link().
        compilation_outputs = cc_common.create_compilation_outputs(
            objects = depset([dlink], transitive = [pending.objects]),
            pic_objects = depset([dlink], transitive = [pending.objects]),
        ),
        linking_contexts = [without_device_links(cc_info.linking_context, pending.owners), cuda.cudadevrt.linking_context],
        disallow_dynamic_library = True,
    )
    return [
        DefaultInfo(files = depset([dlink]), runfiles = runfiles),
        CcInfo(compilation_context = cc_info.compilation_context, linking_context = linking_context),
        linked_info(pending, ctx.label),
    ]

cu_device_link = rule(
    implementation = _cu_device_link_impl,
    doc = """Device-links the relocatable device code of the rdc parts (cu_library with rdc = True,
device_link = False) below `deps`, once, for a cc_binary or cc_test: depend on this target instead of
the parts. The link is for every GPU arch the parts were built for; each part must have them all.
go_cuda_library creates one for its cu_deps itself. Passes the deps through unchanged when nothing
below them waits for a device link.""",
    attrs = {
        "deps": attr.label_list(providers = [CcInfo], doc = "cu_library targets (and anything with CcInfo) to link."),
    } | CUDA_ATTRS,
    toolchains = CUDA_TOOLCHAINS,
    fragments = ["cpp"],
    provides = [CcInfo, CuInfo],
)
