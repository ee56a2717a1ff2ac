"""Go module dependencies for WORKSPACE mode that gazelle_dependencies() does not already declare.

The same versions and sums as go.mod/go.sum (gazelle and buildtools come from gazelle_dependencies()).
"""

load("@bazel_gazelle//:deps.bzl", "go_repository")

def go_dependencies():
    """Declares the Go modules from go.mod as go_repository rules (fetched through the Go module proxy)."""
    go_repository(
        name = "com_github_google_uuid",
        importpath = "github.com/google/uuid",
        sum = "h1:Gkbcsh/GbpXz7lPftLA3P6TYMwjCLYm83jiFQZF/3gY=",
        version = "v1.1.1",
    )
    go_repository(
        name = "com_github_pkg_errors",
        importpath = "github.com/pkg/errors",
        sum = "h1:FEBLx1zS214owpjy7qsBeixbURkuhQAwrK5UwLGTwt4=",
        version = "v0.9.1",
    )
    go_repository(
        name = "org_gorgonia_cu",
        importpath = "gorgonia.org/cu",
        sum = "h1:m9gAnB9rWDVQACVwavCfQSVNtgLKtrDXRExybwQu9YY=",
        version = "v0.9.6",
    )
