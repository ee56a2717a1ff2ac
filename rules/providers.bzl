"""Providers of the rules_cuda_go rules."""

CuInfo = provider(
    doc = """What a cu_library carries besides CcInfo: relocatable device code on its way to the one
device link of a binary (see device_link.bzl).""",
    fields = {
        "rdc_objects": "depset of Files: objects compiled with -rdc=true (this target's and its rdc parts') that no target below has device-linked yet; the first linking consumer device-links them.",
        "rdc_libraries": "depset of Files: static libraries with device code that the device link must see (e.g. libcufft_static.a for cuFFT callbacks).",
        "rdc_archs": "depset of strings '<label> <sm_XX,sm_YY>': the real GPU archs each target in rdc_objects was built for.",
        "device_linked": "depset of strings: labels of the targets whose relocatable device code was device-linked below this target (to catch a part linked twice).",
        "linked_objects": "depset of Files: the -rdc=true objects that targets below device-linked themselves (an rdc library with device_link = True). A target above that device-links links them again with its own code, so that its kernels may call their __device__ functions, and drops those targets' device links. Optional (absent: none).",
        "linked_libraries": "depset of Files: the static libraries with device code of those device links. Optional.",
        "linked_archs": "depset of strings, as rdc_archs, for linked_objects. Optional.",
        "linked_owners": "depset of strings: the labels of the targets whose linker inputs hold those device links. Optional.",
    },
)
