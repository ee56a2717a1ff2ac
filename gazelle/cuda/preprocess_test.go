package cuda

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/gazelle/cuda/internal/cpp"
)

// writeTree writes files (by slash-separated path) under a new directory and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// reachedIncludes walks the unit of rel and returns "from:path:state" for each include visited.
func reachedIncludes(t *testing.T, root, rel string, defs ...string) []string {
	t.Helper()
	pp := newPreprocessor(root)
	var got []string
	pp.unit(&cudaConfig{}, rel, defs, nil, func(r reached) {
		s := r.from + ":" + r.inc.Path
		if r.state == cpp.Maybe {
			s += ":maybe"
		}
		got = append(got, s)
	})
	sort.Strings(got)
	return got
}

func TestPreprocessorUnit(t *testing.T) {
	root := writeTree(t, map[string]string{
		"a/main.cu": `#include "cfg.h"
#include "a/guarded.h"
#include "guarded.h"
#include "once.h"
#include "once.h"
#ifdef FROM_CFG
#include <cufft.h>
#endif
#if defined(ENABLE_X) && !defined(NO_X)
#include <cudnn.h>
#elif __CUDA_ARCH__ >= 800
#include <cublas_v2.h>
#define ARCH_ONLY 1
#else
#include <curand.h>
#endif
#ifdef ARCH_ONLY
#include <cusparse.h>
#endif
#define LOCAL 2
#if LOCAL == 2
#include <nvrtc.h>
#endif
#undef LOCAL
#ifdef LOCAL
#include <nccl.h>
#endif
`,
		"a/cfg.h": "#pragma once\n#define FROM_CFG\n",
		"a/guarded.h": `#ifndef __GUARDED_H__
#define __GUARDED_H__
#include <cusolverDn.h>
#ifdef ENABLE_X
#include <mpi.h>
#endif
#endif
`,
		"a/once.h": "#pragma once\n#include <vector>\n",
	})
	got := reachedIncludes(t, root, "a/main.cu")
	want := []string{
		"a/main.cu:a/guarded.h", "a/main.cu:cfg.h", "a/main.cu:cublas_v2.h:maybe", "a/main.cu:cufft.h",
		"a/main.cu:curand.h:maybe", "a/main.cu:cusparse.h:maybe", "a/main.cu:guarded.h", "a/main.cu:nvrtc.h",
		"a/main.cu:once.h", "a/main.cu:once.h",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("unit without defines:\n got %q\nwant %q", got, want)
	}

	// ENABLE_X turns on cudnn.h here and mpi.h in guarded.h, which guarded.h on its own does
	// not reach: the unit gets it. The #elif and #else branches are off.
	got = reachedIncludes(t, root, "a/main.cu", "-DENABLE_X")
	want = []string{
		"a/guarded.h:mpi.h", "a/main.cu:a/guarded.h", "a/main.cu:cfg.h", "a/main.cu:cudnn.h",
		"a/main.cu:cufft.h", "a/main.cu:guarded.h", "a/main.cu:nvrtc.h", "a/main.cu:once.h", "a/main.cu:once.h",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("unit with -DENABLE_X:\n got %q\nwant %q", got, want)
	}

	// The header alone: its guard is its own (a reserved-looking name is not unknown).
	got = reachedIncludes(t, root, "a/guarded.h")
	want = []string{"a/guarded.h:cusolverDn.h"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("guarded.h alone:\n got %q\nwant %q", got, want)
	}
}

func TestPreprocessorCycle(t *testing.T) {
	root := writeTree(t, map[string]string{
		"x.h": "#include \"y.h\"\n#include <cufft.h>\n",
		"y.h": "#include \"x.h\"\n",
	})
	got := reachedIncludes(t, root, "x.h")
	if len(got) != 2 || got[0] != "x.h:cufft.h" || got[1] != "x.h:y.h" {
		t.Errorf("unit of x.h = %q", got)
	}
}

func TestPreprocessorCudaccPerFile(t *testing.T) {
	src := "#ifdef __CUDACC__\n#include <cublas_v2.h>\n#else\n#include <cufft.h>\n#endif\n"
	root := writeTree(t, map[string]string{"k.cu": src, "h.cpp": src, "h.h": src})
	for file, want := range map[string]string{
		"k.cu":  "k.cu:cublas_v2.h",
		"h.cpp": "h.cpp:cufft.h",
		"h.h":   "h.h:cublas_v2.h:maybe h.h:cufft.h:maybe",
	} {
		if got := strings.Join(reachedIncludes(t, root, file), " "); got != want {
			t.Errorf("unit of %s: got %q, want %q", file, got, want)
		}
	}
}
