"""cuda_tools: builds the arch resolver (cuda-archs) once, for every toolkit's configuration."""

load(":go.bzl", "go_build", "watch_sources")

def _cuda_tools_impl(rctx):
    watch_sources(rctx, "toolchains/resolver", "toolchains/toolkit")
    res = go_build(rctx, "./toolchains/resolver/cmd/cuda-archs", str(rctx.path("cuda-archs")))
    if res.return_code != 0:
        fail("rules_cuda_go: building the arch resolver (toolchains/resolver/cmd/cuda-archs) failed:\n" + res.stderr)
    rctx.file("BUILD.bazel", 'exports_files(["cuda-archs"])\n')

cuda_tools = repository_rule(
    implementation = _cuda_tools_impl,
    doc = "Builds toolchains/resolver/cmd/cuda-archs with the host Go; the toolkit repositories run it.",
)
