"""Link stubs for libraries the NVIDIA driver installs, generated from a toolkit's headers.

libcuda.so.1 (the driver API, from cuda.h) and libnvidia-ml.so.1 (NVML, from nvml.h): programs link
against the stub and load the driver's library at run time by its soname.
"""

# CUresult CUDA_ERROR_STUB_LIBRARY: what every function of the generated libcuda stub returns if
# the stub is ever loaded at run time instead of the driver.
_CUDA_ERROR_STUB_LIBRARY = 34

def driver_api_functions(cuda_h):
    """The function names a libcuda link stub must define, from the text of cuda.h.

    Every `CUDAAPI cuXxx(` declaration (also split after CUDAAPI over two lines) and the targets
    of `#define cuXxx cuXxx_v2` renames.

    Args:
      cuda_h: the text of cuda.h.

    Returns:
      The sorted function names.
    """
    names = {}
    pending = False  # The previous line was "CUresult CUDAAPI", the name starts this one.
    for line in cuda_h.splitlines():
        line = line.strip()
        name = ""
        if pending:
            name = line.split("(", 1)[0].strip()
        elif "CUDAAPI cu" in line and "(" in line:
            name = line.split("CUDAAPI ", 1)[1].split("(", 1)[0].strip()
        elif line.startswith("#define cu"):
            parts = [p for p in line.replace("\t", " ").split(" ") if p]
            if len(parts) == 3:
                name = parts[2]
        pending = line.endswith(" CUDAAPI") and not line.startswith("*")
        if name.startswith("cu") and name.replace("_", "").isalnum():
            names[name] = True
    return sorted(names.keys())

def nvml_functions(nvml_h):
    """The function names an NVML link stub must define, from the text of nvml.h.

    Every `DECLDIR` declaration of an nvml function (`nvmlReturn_t DECLDIR nvmlInit_v2(void);`,
    `const DECLDIR char* nvmlErrorString(...)`) and the targets of `#define nvmlXxx nvmlXxx_v2`.

    Args:
      nvml_h: the text of nvml.h.

    Returns:
      The sorted function names.
    """
    names = {}
    for line in nvml_h.splitlines():
        line = line.strip()
        name = ""
        if "DECLDIR" in line and "(" in line and not line.startswith("#"):
            # nvmlReturn_t DECLDIR nvmlInit_v2(void); const DECLDIR char* nvmlErrorString(...);
            name = line.split("DECLDIR", 1)[1].split("(", 1)[0].replace("*", " ").strip()
            name = name.split(" ")[-1] if name else ""
        elif line.startswith("#define nvml"):
            parts = [p for p in line.replace("\t", " ").split(" ") if p]
            if len(parts) == 3:
                name = parts[2]
        if name.startswith("nvml") and name.replace("_", "").isalnum():
            names[name] = True
    return sorted(names.keys())

# nvmlReturn_t NVML_ERROR_UNKNOWN: what the generated NVML stub's functions return.
_NVML_ERROR_UNKNOWN = 999

# A link stub: %{functions}, one `int name(void) { return value; }` line each, for %{soname}, from
# the toolkit's %{header}.
_LINK_STUB_TPL = Label("//toolchains/private:link_stub.c.tpl")

def _write_stub(rctx, header, out, soname, names, value):
    """Writes out, a C file defining every function of names to return value; False if no header."""
    if not header.exists:
        return False
    rctx.template(out, _LINK_STUB_TPL, {
        "%{header}": header.basename,
        "%{soname}": soname,
        "%{functions}": "\n".join(["int %s(void) { return %d; }" % (name, value) for name in names(rctx.read(header))]),
    })
    return True

def write_nvml_stub(rctx, nvml_h):
    """Writes stub/nvml_stub.c (libnvidia-ml.so.1) into the repository.

    Args:
      rctx: the repository_ctx.
      nvml_h: path of the toolkit's nvml.h.

    Returns:
      Whether a stub was written (False when there is no nvml.h).
    """
    return _write_stub(rctx, nvml_h, "stub/nvml_stub.c", "libnvidia-ml.so.1", nvml_functions, _NVML_ERROR_UNKNOWN)

def write_driver_stub(rctx, cuda_h):
    """Writes stub/cuda_stub.c (libcuda.so.1) and the lazy driver library into the repository.

    Args:
      rctx: the repository_ctx.
      cuda_h: path of the toolkit's cuda.h.

    Returns:
      Whether a stub was written (False when there is no cuda.h).
    """
    return _write_stub(rctx, cuda_h, "stub/cuda_stub.c", "libcuda.so.1", driver_api_functions, _CUDA_ERROR_STUB_LIBRARY) and write_driver_lazy(rctx, cuda_h)

# The lazy driver library (stub/cuda_lazy.c and stub/cuda_lazy.S): every driver API function of
# cuda.h as a trampoline that jumps to the driver's function, which the first call looks up in
# libcuda.so.1 (dlopen, dlsym). Without a driver (or a function the installed one lacks) the
# functions return an error and one line on stderr says why, so that a program on the driver API
# starts on any machine and NEEDs no libcuda.so.1. Only x86-64 and aarch64 (Linux).
# cuda_lazy.c.tpl: the function names (%{names}, %{count} of them) and their lookup;
# cuda_lazy.S.tpl: the trampolines (%{trampolines}: one RCG_LAZY(name, index) line each). A loaded
# function is one indirect jump; the first call saves the argument registers, resolves
# (rcg_cuda_lazy_resolve) and jumps with them restored.
_LAZY_C_TPL = Label("//toolchains/private:cuda_lazy.c.tpl")
_LAZY_S_TPL = Label("//toolchains/private:cuda_lazy.S.tpl")

def write_driver_lazy(rctx, cuda_h):
    """Writes stub/cuda_lazy.c and stub/cuda_lazy.S (the lazily loaded driver API) into the repository.

    Args:
      rctx: the repository_ctx.
      cuda_h: path of the toolkit's cuda.h.

    Returns:
      Whether they were written (False when there is no cuda.h).
    """
    if not cuda_h.exists:
        return False
    names = driver_api_functions(rctx.read(cuda_h))
    rctx.template("stub/cuda_lazy.c", _LAZY_C_TPL, {
        "%{count}": str(len(names)),
        "%{names}": "\n".join(['    "%s",' % n for n in names]),
    })
    rctx.template("stub/cuda_lazy.S", _LAZY_S_TPL, {
        "%{trampolines}": "\n".join(["RCG_LAZY(%s, %d)" % (n, i) for i, n in enumerate(names)]),
    })
    return True
