"""Providers of the rules_cuda_go rules."""

CuInfo = provider(
    doc = "What a cu_library carries besides CcInfo.",
    fields = {
        "rdc_objects": "depset of Files: objects compiled with relocatable device code, for the device link.",
        "gencode_flags": "list of strings: the -gencode flags this target was compiled with.",
    },
)
