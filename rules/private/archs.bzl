"""Resolving a TORCH_CUDA_ARCH_LIST spec to -gencode flags at analysis time.

The semantics live in the Go resolver (toolchains/resolver); the repository rule ran it to produce
the toolchain's token table. Here a spec is only split into tokens and looked up, as the table's
header describes, so the flags can be on the nvcc command line.
"""

def split_spec(spec, separators):
    """The non-empty entries of spec, split on any character of separators (the resolver's set)."""
    for sep in separators.elems():
        spec = spec.replace(sep, ";")
    return [p for p in spec.split(";") if p]

def resolve_archs(spec, cuda, where):
    """Returns (flags, error) for a spec; error is "" on success.

    Args:
      spec: the spec ("auto", "native", "8.0;9.0+PTX", "Hopper", ...).
      cuda: CudaToolchainInfo.
      where: what the spec came from, for messages (e.g. "--cuda_archs").

    Returns:
      (flags, error): the sorted -gencode flags and "", or [] and a message naming the bad entry.
    """
    if spec == "auto":
        spec = cuda.default_spec
        where = cuda.default_source
    pieces = split_spec(spec, cuda.arch_separators)
    if spec == "" or pieces == ["native"]:
        if cuda.native_error:
            return [], "CUDA arch spec %r (from %s) means the visible GPUs, but %s. Set TORCH_CUDA_ARCH_LIST or --cuda_archs, e.g. --cuda_archs='8.0;9.0+PTX'." % (spec, where, cuda.native_error)
        return cuda.native_flags, ""
    if not pieces:
        return [], "CUDA arch spec %r (from %s) is an empty arch list; accepted: %s" % (spec, where, cuda.arch_accepted)
    flags = {}
    for p in pieces:
        if p in cuda.arch_tokens:
            for f in cuda.arch_tokens[p]:
                flags[f] = True
        elif p in cuda.arch_unsupported:
            return [], "%s (in CUDA arch spec %r from %s)" % (cuda.arch_unsupported[p], spec, where)
        else:
            return [], "invalid CUDA arch %r in spec %r (from %s); accepted: %s" % (p, spec, where, cuda.arch_accepted)
    return sorted(flags.keys()), ""
