"""package_metadata: writes a package's purl to a JSON file and returns PackageMetadataInfo."""

load("//providers:package_metadata_info.bzl", "PackageMetadataInfo")

def _package_metadata_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".package-metadata.json")
    ctx.actions.write(out, json.encode({"label": str(ctx.label), "purl": ctx.attr.purl}))
    return [
        DefaultInfo(files = depset([out])),
        PackageMetadataInfo(metadata = out, purl = ctx.attr.purl),
    ]

_package_metadata = rule(
    implementation = _package_metadata_impl,
    attrs = {
        "attributes": attr.label_list(),
        "purl": attr.string(mandatory = True),
    },
)

def package_metadata(name, purl, attributes = [], applicable_licenses = [], **kwargs):
    # applicable_licenses defaults to [] so that a REPO.bazel default_package_metadata naming this
    # target does not make it its own dependency.
    _package_metadata(
        name = name,
        purl = purl,
        attributes = attributes,
        applicable_licenses = applicable_licenses,
        **kwargs
    )
