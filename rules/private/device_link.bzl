"""The device link of relocatable device code across targets, shared by cu_library and cu_device_link.

Relocatable device code (rdc = True) is compiled everywhere and device-linked once, like host code
is compiled per library and linked once per binary. A cu_library with `device_link = False` is an
rdc part: its objects travel up in CuInfo.rdc_objects. The first target that links (a cu_library
with the default `device_link = True`, a cu_device_link, or the cu_device_link go_cuda_library
creates) runs one nvcc -dlink over all parts that reach it, deduplicated, so a part shared by two
libraries (a diamond) is linked once. Linking a part twice on the way to one consumer is an error
that says where.

A target that device-links also takes over the relocatable device code that rdc targets below it
device-linked themselves (an rdc = True library with the default device_link = True, under another
rdc library whose kernels call its __device__ functions): it links their code again together with
its own, and drops their device-link objects from its CcInfo, so that each binary above it has one
device link over all of it.
"""

load("@rules_cc//cc/common:cc_common.bzl", "cc_common")
load("//common:providers.bzl", "CuInfo")
load(":actions.bzl", "nvcc_device_link")

def real_archs(gencode_flags):
    """The sm_XX codes (SASS) in -gencode flags: what a device link needs from every part.

    Args:
      gencode_flags: list of -gencode=arch=...,code=... flags.

    Returns:
      sorted list of strings.
    """
    out = {}
    for flag in gencode_flags:
        for part in flag.split(","):
            if part.startswith("code="):
                for code in part[len("code="):].strip("[]").split(","):
                    if code.startswith("sm_"):
                        out[code] = True
    return sorted(out.keys())

def collect(label, deps, own_objects, own_gencode):
    """Merges the rdc state of deps (and this target's own rdc objects) for one target.

    Args:
      label: this target's Label.
      deps: targets; those without CuInfo (cc_library) carry no device code.
      own_objects: this target's -rdc=true objects ([] when not rdc).
      own_gencode: the -gencode flags they were built with.

    Returns:
      struct(objects, libraries, archs, linked: depsets as in CuInfo; linked_by_dep: list of
      (dep label, list of labels it device-linked); done_objects, done_libraries, done_archs,
      done_owners: the code that targets below device-linked themselves, and those targets, as in
      CuInfo's linked_* fields).
    """
    infos = [(d.label, d[CuInfo]) for d in deps if CuInfo in d]
    own_archs = ["%s %s" % (label, ",".join(real_archs(own_gencode)))] if own_objects else []

    return struct(
        objects = depset(own_objects, transitive = [i.rdc_objects for _, i in infos]),
        libraries = depset(transitive = [i.rdc_libraries for _, i in infos]),
        archs = depset(own_archs, transitive = [i.rdc_archs for _, i in infos]),
        linked = depset(transitive = [i.device_linked for _, i in infos]),
        linked_by_dep = [(dep, i.device_linked.to_list()) for dep, i in infos],
        done_objects = _done(infos, "linked_objects"),
        done_libraries = _done(infos, "linked_libraries"),
        done_archs = _done(infos, "linked_archs"),
        done_owners = _done(infos, "linked_owners"),
    )

def _done(infos, field):
    # CuInfo values made elsewhere (cuda_device_library, users' rules) may lack the linked_* fields.
    return depset(transitive = [getattr(i, field, None) or depset() for _, i in infos])

def absorb(pending):
    """What a target that device-links links: the pending code, and the code others linked below.

    The code below it that other targets device-linked themselves joins the link; their own
    device links are then dropped (see without_device_links).

    Args:
      pending: a collect() struct with something to link.

    Returns:
      a collect() struct whose objects, libraries and archs include the done_* ones; owners are
      the targets whose device links it replaces.
    """
    return struct(
        objects = depset(transitive = [pending.objects, pending.done_objects]),
        libraries = depset(transitive = [pending.libraries, pending.done_libraries]),
        archs = depset(transitive = [pending.archs, pending.done_archs]),
        linked = pending.linked,
        linked_by_dep = pending.linked_by_dep,
        done_objects = depset(),
        done_libraries = depset(),
        done_archs = depset(),
        done_owners = depset(),
        owners = pending.done_owners,
    )

def without_device_links(linking_context, owners):
    """linking_context without the archives of the targets in owners, keeping their link flags.

    Their archives hold their objects and device-link objects; a target that absorb()ed their code
    links it itself.

    Args:
      linking_context: a CcLinkingContext.
      owners: depset of strings, the labels of the targets.

    Returns:
      a CcLinkingContext.
    """
    drop = {o: True for o in owners.to_list()}
    if not drop:
        return linking_context
    inputs = []
    for li in linking_context.linker_inputs.to_list():
        if str(li.owner) in drop:
            li = cc_common.create_linker_input(
                owner = li.owner,
                user_link_flags = depset(li.user_link_flags),
                additional_inputs = depset(li.additional_inputs),
            )
        inputs.append(li)
    return cc_common.create_linking_context(linker_inputs = depset(inputs, order = "topological"))

def check_archs(label, pending, link_archs):
    """Why pending rdc code cannot be device-linked here for link_archs, or "".

    Args:
      label: the linking target.
      pending: a collect() struct.
      link_archs: the sm_XX codes this link produces.

    Returns:
      an error message, or "".
    """
    for part, archs in part_archs(pending).items():
        missing = [a for a in link_archs if a not in archs]
        if missing:
            return ("%s device-links for %s, but its rdc part %s was built for %s only (no %s): build " +
                    "both for the same GPUs (the archs attribute, or --cuda_archs for all).") % (
                label,
                " ".join(link_archs),
                part,
                " ".join(archs) or "no real arch (PTX only)",
                " ".join(missing),
            )
    return ""

def part_archs(pending):
    """The rdc parts pending, each with the sm_XX codes it was built for.

    Args:
      pending: a collect() struct.

    Returns:
      dict: part label (string) -> list of sm_XX codes.
    """
    parts = {}
    for entry in pending.archs.to_list():
        part, _, archs = entry.partition(" ")
        parts[part] = archs.split(",") if archs else []
    return parts

def check_linked_once(label, pending):
    """Why the deps of label bring some relocatable device code device-linked twice, or "".

    Args:
      label: the target.
      pending: a collect() struct.

    Returns:
      an error message, or "".
    """
    parts = part_archs(pending)
    seen = {}
    for dep, linked in pending.linked_by_dep:
        for part in linked:
            if part in parts:
                return ("%s: the relocatable device code of %s reaches it twice: %s device-linked it " +
                        "already, and another dep brings it unlinked. Give %s device_link = False so " +
                        "that only %s links it.") % (label, part, dep, dep, label)
            if part in seen and seen[part] != dep:
                return ("%s: the relocatable device code of %s was device-linked twice below it, by %s " +
                        "and by %s; one binary must link it once. Give both device_link = False and " +
                        "let %s (or one cu_device_link) link them.") % (label, part, seen[part], dep, label)
            seen[part] = dep
    return ""

def link(ctx, cuda, host, pending, gencode):
    """Device-links pending rdc code into one object.

    The caller puts the object into its own archive together with the parts' objects: it refers to
    their __fatbinwrap_* symbols and they to its __cudaRegisterLinkedBinary_* functions, and a
    linker resolves references back and forth only inside one archive (the parts' own archives come
    later on the command line, and rules_go's cgo link ignores alwayslink). The copies in the
    parts' own archives are then never pulled: their symbols are defined already.

    Args:
      ctx: the rule context.
      cuda: CudaToolchainInfo.
      host: the host compiler (//toolchains:host_compiler.bzl).
      pending: a collect() struct with objects to link.
      gencode: -gencode flags of the link.

    Returns:
      the device-link object (File).
    """
    out = ctx.actions.declare_file("_objs/%s/%s.dlink.o" % (ctx.label.name, ctx.label.name))

    # libcudadevrt.a: the device runtime that device-side kernel launches (dynamic parallelism)
    # call into (__cudaCDP2*); nvlink takes from it only what the objects reference.
    devrt = [
        lib.static_library or lib.pic_static_library
        for li in cuda.cudadevrt.linking_context.linker_inputs.to_list()
        for lib in li.libraries
        if lib.static_library or lib.pic_static_library
    ] if cuda.cudadevrt else []
    nvcc_device_link(ctx.actions, cuda, host, pending.objects.to_list(), pending.libraries.to_list() + devrt, out, gencode)
    return out

def linked_info(pending, label = None):
    """The CuInfo of a target that device-linked everything pending, or had nothing to link.

    Args:
      pending: a collect() struct (absorb()ed when label is given).
      label: the target, when it device-linked: its link is what a target above may take over.

    Returns:
      CuInfo.
    """
    parts = [e.partition(" ")[0] for e in pending.archs.to_list()]
    parts += [f.path for f in pending.libraries.to_list()]
    if label:
        done = struct(objects = pending.objects, libraries = pending.libraries, archs = pending.archs, owners = depset([str(label)]))
    else:
        done = struct(objects = pending.done_objects, libraries = pending.done_libraries, archs = pending.done_archs, owners = pending.done_owners)
    return CuInfo(
        rdc_objects = depset(),
        rdc_libraries = depset(),
        rdc_archs = depset(),
        device_linked = depset(parts, transitive = [pending.linked]),
        linked_objects = done.objects,
        linked_libraries = done.libraries,
        linked_archs = done.archs,
        linked_owners = done.owners,
    )

def pending_info(pending):
    """The CuInfo of a target that leaves its rdc code to a consumer."""
    return CuInfo(
        rdc_objects = pending.objects,
        rdc_libraries = pending.libraries,
        rdc_archs = pending.archs,
        device_linked = pending.linked,
        linked_objects = pending.done_objects,
        linked_libraries = pending.done_libraries,
        linked_archs = pending.done_archs,
        linked_owners = pending.done_owners,
    )
