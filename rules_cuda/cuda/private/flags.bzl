"""The build settings of rules_cuda's //cuda package that are its own (not aliases of rules_cuda_go's)."""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load(":archs.bzl", "parse_archs")

CudaArchsInfo = provider(
    doc = "The GPU archs of --@rules_cuda//cuda:archs, as -gencode flags (empty: rules_cuda_go's --cuda_archs decides).",
    fields = {
        "spec": "the flag's value, rules_cuda's syntax",
        "gencode": "list of -gencode=arch=compute_V,code=C flags",
    },
)

def _cuda_archs_flag_impl(ctx):
    spec = ctx.build_setting_value
    gencode = []
    if spec:
        gencode, err = parse_archs(spec, "--@rules_cuda//cuda:archs")
        if err:
            fail(err)
    return [BuildSettingInfo(value = spec), CudaArchsInfo(spec = spec, gencode = gencode)]

cuda_archs_flag = rule(
    implementation = _cuda_archs_flag_impl,
    build_setting = config.string(flag = True),
    doc = """rules_cuda's arch list: `[compute_N:]CODE[,CODE...][;...]`, CODE one of sm_N, compute_N.

Empty (the default): the archs of --@rules_cuda_go//toolchains:archs (TORCH_CUDA_ARCH_LIST, else
the visible GPUs, else 8.0;9.0+PTX).""",
)

def _repeatable_string_flag_impl(ctx):
    return BuildSettingInfo(value = [v for v in ctx.build_setting_value if v])

repeatable_string_flag = rule(
    implementation = _repeatable_string_flag_impl,
    build_setting = config.string(flag = True, allow_multiple = True),
    doc = "A string flag that may be given several times; its value is the list of the non-empty ones.",
)
