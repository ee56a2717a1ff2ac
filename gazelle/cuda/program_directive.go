package cuda

import (
	"log"
	"path"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/rule"
)

// programDirective is a `# gazelle:cuda_program NAME FILE...` directive: a program declared by
// hand, as a Makefile's `NAME: FILE.o ... common.o` line declares it. Gazelle generates
// cc_binary NAME and cu_library NAME_lib with srcs = the FILEs and deps on what they include and
// on the directory's library (the sources no program lists), and keeps both in step with the
// directive and the files.
type programDirective struct {
	name  string
	files []string
}

// parseProgram reads a cuda_program directive; false (and a log line) when it is malformed or
// names a program that an earlier directive of the file declares.
func parseProgram(f *rule.File, d rule.Directive, seen []programDirective) (programDirective, bool) {
	fields := strings.Fields(d.Value)
	if len(fields) < 2 {
		log.Printf("%s: # gazelle:%s %q: expected NAME FILE...", f.Path, d.Key, d.Value)
		return programDirective{}, false
	}
	p := programDirective{name: fields[0]}
	if strings.ContainsAny(p.name, "/:") {
		log.Printf("%s: # gazelle:%s %q: %q is not a target name", f.Path, d.Key, d.Value, p.name)
		return programDirective{}, false
	}
	for _, s := range seen {
		if s.name == p.name {
			log.Printf("%s: # gazelle:%s %q: program %s is declared twice; the first one counts", f.Path, d.Key, d.Value, p.name)
			return programDirective{}, false
		}
	}
	for _, file := range fields[1:] {
		ext := path.Ext(file)
		if strings.Contains(file, "/") || !(cudaSourceExts[ext] || hostSourceExts[ext]) {
			log.Printf("%s: # gazelle:%s %q: %s is not a source file (.cu, .cc, .cpp, .cxx, .c) of this directory", f.Path, d.Key, d.Value, file)
			return programDirective{}, false
		}
		p.files = appendNew(p.files, file)
	}
	return p, true
}
