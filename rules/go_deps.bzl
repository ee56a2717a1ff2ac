"""The Go modules rules_cuda_go's packages import, for WORKSPACE mode.

Load it after rules_cuda_go_dependencies() (it needs gazelle's go_repository) and call
rules_cuda_go_go_dependencies(). The same versions and sums as the go.mod/go.sum of the library (the
root) and of ops/bench (gazelle and buildtools come from gazelle_dependencies()); in bzlmod, those
go.mod files themselves declare them (MODULE.bazel).
"""

load("@bazel_gazelle//:deps.bzl", "go_repository")

def rules_cuda_go_go_dependencies():
    """Declares the Go modules of go.mod as go_repository rules.

    Plain go_repository calls (no maybe()): gazelle reads them from this macro
    (`# gazelle:repository_macro`) to resolve imports inside these repositories. To use another
    version of one of them, declare it again after calling this macro.

    They are fetched through the Go module proxy, and only when a target needs them:
    github.com/x448/float16 (ops' 16-bit floats) and gonum.org/v1/plot (ops/bench's plots) with
    their dependencies.
    """
    go_repository(
        name = "com_github_x448_float16",
        importpath = "github.com/x448/float16",
        sum = "h1:qLwI1I70+NjRFUR3zs1JPUCgaCXSh3SW62uAKT1mSBM=",
        version = "v0.8.4",
    )

    # gonum.org/v1/plot and the modules its packages used by ops/bench import (ops/bench/go.sum's sums).
    go_repository(
        name = "ht_sr_git_sbinet_gg",
        importpath = "git.sr.ht/~sbinet/gg",
        sum = "h1:RIzgkizAk+9r7uPzf/VfbJHBMKUr0F5hRFxTUGMnt38=",
        version = "v0.6.0",
    )
    go_repository(
        name = "com_github_ajstarks_svgo",
        importpath = "github.com/ajstarks/svgo",
        sum = "h1:slYM766cy2nI3BwyRiyQj/Ud48djTMtMebDqepE95rw=",
        version = "v0.0.0-20211024235047-1546f124cd8b",
    )
    go_repository(
        name = "com_github_golang_freetype",
        importpath = "github.com/golang/freetype",
        sum = "h1:DACJavvAHhabrF08vX0COfcOBJRhZ8lUbR+ZWIs0Y5g=",
        version = "v0.0.0-20170609003504-e2365dfdc4a0",
    )
    go_repository(
        name = "org_codeberg_go_fonts_liberation",
        importpath = "codeberg.org/go-fonts/liberation",
        sum = "h1:SsKoMO1v1OZmzkG2DY+7ZkCL9U+rrWI09niOLfQ5Bo0=",
        version = "v0.5.0",
    )
    go_repository(
        name = "org_codeberg_go_latex_latex",
        importpath = "codeberg.org/go-latex/latex",
        sum = "h1:hoGO86rIbWVyjtlDLzCqZPjNykpWQ9YuTZqAzPcfL3c=",
        version = "v0.1.0",
    )
    go_repository(
        name = "org_codeberg_go_pdf_fpdf",
        importpath = "codeberg.org/go-pdf/fpdf",
        sum = "h1:u+w669foDDx5Ds43mpiiayp40Ov6sZalgcPMDBcZRd4=",
        version = "v0.10.0",
    )
    go_repository(
        name = "org_golang_x_image",
        importpath = "golang.org/x/image",
        sum = "h1:Y6uW6rH1y5y/LK1J8BPWZtr6yZ7hrsy6hFrXjgsc2fQ=",
        version = "v0.25.0",
    )
    go_repository(
        name = "org_gonum_v1_plot",
        importpath = "gonum.org/v1/plot",
        sum = "h1:dK28Qx/Ky4VmPUN/2zeW0ELyM6ucDnBAj5yun7M9n1g=",
        version = "v0.16.0",
    )
