"""Module extension matching the buildozer module's `buildozer_binary`: its buildozer only says it is absent."""

def _buildozer_repo_impl(rctx):
    rctx.file("BUILD.bazel", 'exports_files(["buildozer"])\n')
    rctx.file(
        "buildozer",
        "#!/bin/sh\necho 'buildozer is not available in this offline setup' >&2\nexit 1\n",
        executable = True,
    )

_buildozer_repo = repository_rule(implementation = _buildozer_repo_impl)

def _buildozer_binary_impl(_mctx):
    _buildozer_repo(name = "buildozer_binary")

buildozer_binary = module_extension(
    implementation = _buildozer_binary_impl,
    tag_classes = {
        "buildozer": tag_class(attrs = {
            "sha256": attr.string_dict(),
            "version": attr.string(),
        }),
    },
)
