"""rules_cuda's arch spec syntax (`compute_80:sm_80,compute_80;sm_90a`) as -gencode flags.

A spec is specs separated by ';'; each is `[VIRTUAL:]CODE[,CODE...]` where CODE is sm_N (SASS),
compute_N (PTX) or lto_N, and VIRTUAL is compute_N. Without VIRTUAL, a spec's virtual arch is
compute_ of its lowest CODE ("sm_90a,sm_90" -> compute_90). Each CODE becomes one
-gencode=arch=compute_V,code=CODE flag, the form rules_cuda_go's resolver writes, so that the
split per-arch compile applies.
"""

def _number(arch):
    """(int, suffix) of "90a" for ordering: 90 < 90a < 100."""
    digits = ""
    for c in arch.elems():
        if not c.isdigit():
            break
        digits += c
    if not digits:
        return None
    return (int(digits), arch[len(digits):])

def _kind(code):
    for prefix in ["sm_", "compute_", "lto_"]:
        if code.startswith(prefix):
            return prefix[:-1], code[len(prefix):]
    return None, None

def parse_archs(spec, where):
    """The -gencode flags of a rules_cuda arch spec, or an error.

    Args:
      spec: the spec, e.g. "compute_80:sm_80,compute_80;sm_90a".
      where: what the spec came from, for messages.

    Returns:
      (flags, error): the flags in spec order (no duplicates) and "", or [] and a message.
    """
    flags = []
    for part in spec.split(";"):
        part = part.strip()
        if not part:
            continue
        virtual, sep, codes = part.partition(":")
        if not sep:
            virtual, codes = "", part
        entries = [c.strip() for c in codes.split(",") if c.strip()]
        if not entries:
            return [], "%s: the arch spec %r lists no GPU arch after %r; write e.g. compute_80:sm_80,compute_80" % (where, part, virtual + ":")
        numbers = {}
        for code in entries:
            kind, num = _kind(code)
            if kind == None or _number(num) == None:
                return [], "%s: %r in arch spec %r is not sm_N, compute_N or lto_N (rules_cuda's syntax: [compute_N:]sm_N|compute_N[,...][;...], e.g. compute_80:sm_80,compute_80;sm_90a)" % (where, code, spec)
            if kind == "lto":
                return [], "%s: %r in arch spec %r asks for device link-time optimisation (-dlto), which rules_cuda_go does not build; write sm_%s (SASS) or compute_%s (PTX) instead" % (where, code, spec, num, num)
            numbers[code] = num
        if virtual:
            kind, vnum = _kind(virtual)
            if kind != "compute" or _number(vnum) == None:
                return [], "%s: %r before ':' in arch spec %r is not a virtual arch compute_N (lto_N is not built by rules_cuda_go)" % (where, virtual, spec)
        else:
            vnum = sorted(numbers.values(), key = _number)[0]
        for code in entries:
            flag = "-gencode=arch=compute_%s,code=%s" % (vnum, code)
            if flag not in flags:
                flags.append(flag)
    if not flags:
        return [], "%s: the arch spec %r names no arch" % (where, spec)
    return flags, ""

def check_supported(flags, cuda, where):
    """"" if the toolkit's nvcc builds every arch of flags, else a message naming the first that it does not.

    Args:
      flags: -gencode flags from parse_archs.
      cuda: CudaToolchainInfo (its arch_tokens: what the resolver found the nvcc supports).
      where: what the flags came from, for messages.

    Returns:
      A message, or "".
    """
    known = {}
    for token_flags in cuda.arch_tokens.values():
        for f in token_flags:
            virtual, _, code = f[len("-gencode=arch="):].partition(",code=")
            known[virtual] = True
            known[code] = True
            known[virtual.replace("compute_", "sm_")] = True
    for f in flags:
        virtual, _, code = f[len("-gencode=arch="):].partition(",code=")
        for arch in [code, virtual]:
            if arch not in known:
                return "%s: %s cannot build %s; it builds: %s" % (
                    where,
                    cuda.toolkit,
                    arch,
                    ", ".join(sorted([k for k in known if k.startswith("sm_")], key = lambda k: _number(k[3:]))),
                )
    return ""
