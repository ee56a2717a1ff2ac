"""Analysis test of current_cuda_toolchain: a genrule's $(NVCC) and $(NVCC_INCLUDES) name the selected
toolkit's nvcc (with -ccbin, as cu_library runs it) and its headers, and nvcc is among the inputs."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")

def _nvcc_genrule_test_impl(ctx):
    env = analysistest.begin(ctx)
    genrules = [a for a in analysistest.target_actions(env) if a.mnemonic == "Genrule"]
    asserts.equals(env, 1, len(genrules), "the genrule's actions")
    if len(genrules) != 1:
        return analysistest.end(env)
    script = " ".join(genrules[0].argv)
    nvcc = [f for f in genrules[0].inputs.to_list() if f.path.endswith("/bin/nvcc")]
    asserts.equals(env, 1, len(nvcc), "nvcc among the genrule's inputs")
    if nvcc:
        asserts.true(env, nvcc[0].path + " " in script, "$(NVCC) is %s, in %r" % (nvcc[0].path, script))
        asserts.true(env, ctx.attr.toolkit in nvcc[0].path, "nvcc %s is not toolkit %s's" % (nvcc[0].path, ctx.attr.toolkit))
    asserts.true(env, "-ccbin " in script, "$(NVCC) names the host compiler (-ccbin): %r" % script)
    asserts.true(env, "-isystem " in script and "/include" in script, "$(NVCC_INCLUDES) has the toolkit's headers: %r" % script)
    return analysistest.end(env)

nvcc_genrule_test = analysistest.make(
    _nvcc_genrule_test_impl,
    attrs = {"toolkit": attr.string(doc = "Part of the path of the toolkit's nvcc, e.g. cuda_13_5_nvcc.")},
    config_settings = {str(Label("//toolchains:build_cuda")): True},
)
