package cuda

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"

	"github.com/rules-cuda-go/rules_cuda_go/gazelle/cuda/internal/cpp"
)

// cgoIncludes returns the #include directives of the cgo preambles of a Go source file (the
// comments right before `import "C"`). A file that does not import "C", or does not parse, has
// none.
func cgoIncludes(filename string, src []byte) []cpp.Include {
	f, err := parser.ParseFile(token.NewFileSet(), filename, src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return nil
	}
	var out []cpp.Include
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.IMPORT {
			continue
		}
		for _, spec := range gen.Specs {
			imp := spec.(*ast.ImportSpec)
			if p, err := strconv.Unquote(imp.Path.Value); err != nil || p != "C" {
				continue
			}
			// cgo takes the doc comment of the spec, or of the declaration when it is not
			// parenthesized.
			doc := imp.Doc
			if doc == nil && !gen.Lparen.IsValid() {
				doc = gen.Doc
			}
			if doc != nil {
				out = append(out, cpp.ParseIncludes([]byte(doc.Text()))...)
			}
		}
	}
	return out
}
