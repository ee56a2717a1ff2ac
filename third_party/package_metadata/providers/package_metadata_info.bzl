"""PackageMetadataInfo: what rules_go reads from package metadata targets."""

PackageMetadataInfo = provider(
    doc = "Metadata about a package: a JSON file and its package URL.",
    fields = {
        "metadata": "File: JSON with the purl and attributes.",
        "purl": "string: the package URL.",
    },
)
