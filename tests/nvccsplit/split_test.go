// Package nvccsplit tests toolchains/private/nvcc_split.sh, which runs parts
// of an nvcc compile, with a stand-in nvcc whose -dryrun plan names stand-in
// tools: a host compiler that copies the fatbinary's data lines into its
// assembly as gcc does (and records the fatbinary's size where it writes
// debug information) and assembles .incbin, cudafe++ and fatbinary.
package nvccsplit

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The script, from this package's directory (go test and bazel test run here).
const script = "../../toolchains/private/nvcc_split.sh"

// fakeNvcc prints the plan of `nvcc -c SRC -o OBJ [-g]` for sm_90 with PTX,
// its temporary files next to the object, as nvcc -dryrun -objtemp does.
const fakeNvcc = `#!/usr/bin/env bash
set -eu
d=$(cd "$(dirname "$0")" && pwd)
src= obj= g= dry=
while [ $# -gt 0 ]; do
  case $1 in
    -dryrun) dry=1; shift ;;
    -c) src=$2; shift 2 ;;
    -o) obj=$2; shift 2 ;;
    -g) g=-g; shift ;;
    *) shift ;;
  esac
done
[ -n "$dry" ] || { echo "fake nvcc: only -dryrun" >&2; exit 1; }
t=${obj%.o}
b=${t##*/}
cat >&2 <<PLAN
#\$ _NVVM_BRANCH_=nvvm
#\$ PATH=$d:/usr/bin:/bin
#\$ INCLUDES="-I$d/../include"  
#\$ "$d/gcc" -D__CUDA_ARCH_LIST__=900 -E -x c++ "$src" -o "$t.cpp4.ii"
#\$ cudafe++ --gen_c_file_name "$t.compute_90.cudafe1.cpp" --stub_file_name "$b.compute_90.cudafe1.stub.c" "$t.cpp4.ii"
#\$ "$d/gcc" -D__CUDA_ARCH__=900 -D__CUDA_ARCH_LIST__=900 -E -x c++ "$src" -o "$t.compute_90.cpp1.ii"
#\$ cicc --stub_file_name "$t.compute_90.cudafe1.stub.c" --include_file_name "$b.fatbin.c" "$t.compute_90.cpp1.ii" -o "$t.compute_90.ptx"
#\$ ptxas -arch=sm_90 "$t.compute_90.ptx" -o "$t.compute_90.cubin"
#\$ fatbinary -64 --create="$t.fatbin" "--image3=kind=elf,sm=90,file=$t.compute_90.cubin" "--image3=kind=ptx,sm=90,file=$t.compute_90.ptx" --embedded-fatbin="$t.fatbin.c"
#\$ rm "$t.fatbin"
#\$ "$d/gcc" -D__CUDA_ARCH__=900 -c -x c++ $g "$t.compute_90.cudafe1.cpp" -o "$obj"
PLAN
`

// fakeGcc: -E copies the source; -S and -c "compile" a file: its lines, the
// files it #includes (from its directory) in place; a quoted asm line
// ("...\n") becomes its text, the declaration of fatbinData nothing (as
// with gcc: an extern array's size makes no code), any other line a comment;
// with -g, a line that records the size of fatbinData. -c writes "OBJ" and that assembly; -c -x
// assembler writes "OBJ" and the file, each line of the file that an .incbin line names as a data
// line.
const fakeGcc = `#!/usr/bin/env bash
set -eu
echo "${0##*/} $*" >>tools.log
mode= lang= in= out= g=
while [ $# -gt 0 ]; do
  case $1 in
    -E|-S|-c) mode=$1; shift ;;
    -x) lang=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    -g) g=1; shift ;;
    -*) shift ;;
    *) in=$1; shift ;;
  esac
done
expand() {
  local line
  while IFS= read -r line; do
    case $line in
      '#include "'*)
        f=$(dirname "$in")/$(printf '%s' "$line" | sed 's/^#include "\(.*\)"$/\1/')
        if [ -f "$f" ]; then expand <"$f"; else printf '%s\n' "$line"; fi
        ;;
      *) printf '%s\n' "$line" ;;
    esac
  done
}
asm() {
  expand <"$in" | sed -e 's/^"\(.*\)\\n"[);]*$/\1/' -e 's/\\"/"/g' -e '/^extern const unsigned long long fatbinData/d' -e '/^\./!{/^fatbinData:$/!s/^/# /}'
  [ -z "$g" ] || echo "# debug: $(expand <"$in" | grep -o 'fatbinData\[[0-9]*\]')"
}
case $mode in
  -E) cp "$in" "$out" ;;
  -S) asm >"$out" ;;
  -c)
    if [ "$lang" = assembler ]; then
      {
        echo OBJ
        while IFS= read -r line; do
          case $line in
            '.incbin "'*'"') sed 's/^/.quad /' "$(printf '%s' "$line" | sed 's/^\.incbin "\(.*\)"$/\1/')" ;;
            *) printf '%s\n' "$line" ;;
          esac
        done <"$in"
      } >"$out"
    else
      { echo OBJ; asm; } >"$out"
    fi
    ;;
esac
`

// fakeCudafe writes the host translation unit: the preprocessed source and
// an #include of the stub, as cudafe++ does.
const fakeCudafe = `#!/usr/bin/env bash
set -eu
echo "${0##*/} $*" >>tools.log
gen= stub= in=
while [ $# -gt 0 ]; do
  case $1 in
    --gen_c_file_name) gen=$2; shift 2 ;;
    --stub_file_name) stub=$2; shift 2 ;;
    *) in=$1; shift ;;
  esac
done
{ cat "$in"; echo "#include \"$stub\""; } >"$gen"
`

// fakeFatbinary writes the embedded fatbinary source: two data lines per
// image (its kind, arch and contents, each padded with spaces to 7 bytes
// and more by 8), the array's size (8-byte words) after them; and the binary
// fatbinary: those data lines' text, one per line, which the stand-in
// assembler turns back into the data lines (.incbin). With a file
// "wrong-size" in the working directory, the source declares one word more.
const fakeFatbinary = `#!/usr/bin/env bash
set -eu
out= create= lines=()
pad() { local s=$1; while [ $(((${#s} + 1) % 8)) -ne 0 ]; do s+=" "; done; printf '%s' "$s"; }
for a in "$@"; do
  case $a in
    --create=*) create=${a#--create=} ;;
    --embedded-fatbin=*) out=${a#--embedded-fatbin=} ;;
    --image3=*)
      spec=${a#--image3=}
      file=${spec##*file=}
      lines+=("$(pad "${spec%%,file=*}")" "$(pad "$(od -An -tx1 "$file" | tr -d ' \n')")")
      ;;
  esac
done
printf '%s\n' "${lines[@]}" >"$create"
words=$(($(wc -c <"$create") / 8))
[ ! -f wrong-size ] || words=$((words + 1))
{
  echo '#include "fatbinary_section.h"'
  echo 'asm('
  echo '".section .nv_fatbin, \"a\"\n"'
  echo '"fatbinData:\n"'
  for l in "${lines[@]}"; do printf '".quad %s\\n"\n' "$l"; done
  echo '".text\n");'
  echo "extern const unsigned long long fatbinData[$words];"
  echo 'static const __fatBinC_Wrapper_t __fatDeviceText = { 0x466243b1, 1, fatbinData, 0 };'
} >"$out"
`

const obj = "bazel-out/bin/pkg/_objs/k.o"

// execroot makes an action's directory: the source, the device actions'
// outputs (the stub, PTX, SASS) and the stand-in toolkit.
func execroot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"pkg/k.cu":                              "__global__ void k() {}\n",
		"dev/k.o.stub.c":                        "# 1 \"dev/k.o.stub.c\"\n#include \"k.fatbin.c\"\nstatic void register_k() {}\n",
		"dev/k.o.compute_90.ptx":                "PTX\n",
		"dev/k.o.compute_90.cubin":              "SASS\n",
		"external/tk/bin/nvcc":                  fakeNvcc,
		"external/tk/bin/gcc":                   fakeGcc,
		"external/tk/bin/cudafe++":              fakeCudafe,
		"external/tk/bin/fatbinary":             fakeFatbinary,
		"bazel-out/bin/pkg/_objs/k.o.device/.k": "",
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(name, "external/tk/bin/") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// split runs the script in root: role, its arguments, then -- and nvcc's.
func split(t *testing.T, root string, args []string, nvccArgs ...string) (string, error) {
	t.Helper()
	abs, err := filepath.Abs(script)
	if err != nil {
		t.Fatal(err)
	}
	all := append(append(append([]string{args[0], "external/tk/bin/nvcc"}, args[1:]...), "--"), nvccArgs...)
	cmd := exec.Command(abs, all...)
	cmd.Dir = root
	cmd.Env = []string{"PATH=/usr/bin:/bin", "PWD=/proc/self/cwd"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr
	err = cmd.Run()
	return stderr.String(), err
}

func read(t *testing.T, root, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const (
	asmFile = "dev/k.o.host.s"
	standin = "dev/k.o.standin.fatbin.c"
)

// images are the device actions' outputs, as NvccHost gets them.
var images = []string{"elf:90=dev/k.o.compute_90.cubin", "ptx:90=dev/k.o.compute_90.ptx"}

// build runs the host half: whole (no assembly given), or through hostasm
// (edit runs between the two). It returns the object and the host step's
// messages.
func build(t *testing.T, root string, throughAsm bool, edit func(), nvccArgs ...string) (string, string) {
	t.Helper()
	nvcc := append([]string{"-c", "pkg/k.cu", "-o", obj}, nvccArgs...)
	host := []string{"host", "dev/k.o.stub.c", "-", "-"}
	if throughAsm {
		if msg, err := split(t, root, []string{"hostasm", "dev/k.o.stub.c", "90=dev/k.o.compute_90.ptx", asmFile, standin}, nvcc...); err != nil {
			t.Fatalf("hostasm: %v\n%s", err, msg)
		}
		if edit != nil {
			edit()
		}
		host = []string{"host", "dev/k.o.stub.c", asmFile, standin}
	}
	if err := os.RemoveAll(filepath.Join(root, "tools.log")); err != nil {
		t.Fatal(err)
	}
	msg, err := split(t, root, append(host, images...), nvcc...)
	if err != nil {
		t.Fatalf("host: %v\n%s", err, msg)
	}
	return read(t, root, obj), msg
}

// hostRan is what the last host step ran: "assembled" (the host compiler on
// the assembly alone) or "compiled" (cudafe++ and the host compiler).
func hostRan(t *testing.T, root string) string {
	t.Helper()
	log := read(t, root, "tools.log")
	switch {
	case strings.Contains(log, "cudafe++ "):
		return "compiled"
	case strings.Contains(log, "gcc ") && strings.Contains(log, " -x assembler "):
		return "assembled"
	}
	t.Fatalf("the host step ran neither cudafe++ nor the assembler:\n%s", log)
	return ""
}

func TestHostPacksTheImagesInThePlansOrder(t *testing.T) {
	for _, throughAsm := range []bool{false, true} {
		root := execroot(t)
		got, _ := build(t, root, throughAsm, nil)
		elf := strings.Index(got, ".quad kind=elf,sm=90")
		ptx := strings.Index(got, ".quad kind=ptx,sm=90")
		if elf < 0 || ptx < elf {
			t.Errorf("object (through hostasm: %v):\n%s\nwant the elf image, then the ptx image", throughAsm, got)
		}
		for _, tmp := range []string{"bazel-out/bin/pkg/_objs/k.fatbin", obj + ".host.s"} {
			if _, err := os.Stat(filepath.Join(root, tmp)); err == nil {
				t.Errorf("host left its temporary file %s (through hostasm: %v)", tmp, throughAsm)
			}
		}
	}
}

func TestHostNamesAMissingImage(t *testing.T) {
	root := execroot(t)
	msg, err := split(t, root, []string{"host", "dev/k.o.stub.c", "-", "-", images[0]}, "-c", "pkg/k.cu", "-o", obj)
	if err == nil || !strings.Contains(msg, "kind=ptx,sm=90, which no device action built") {
		t.Errorf("host without the PTX image: err %v, message %q; want an error naming kind=ptx,sm=90", err, msg)
	}
}

func TestHostRejectsAnAssemblyWithoutStandIn(t *testing.T) {
	root := execroot(t)
	msg, err := split(t, root, append([]string{"host", "dev/k.o.stub.c", asmFile, "-"}, images...), "-c", "pkg/k.cu", "-o", obj)
	if err == nil || !strings.Contains(msg, "ASM given without STANDIN_C") {
		t.Errorf("host with an assembly and no stand-in: err %v, message %q; want a usage error", err, msg)
	}
}

func TestHostThroughAssemblyIsTheWholeHostCompile(t *testing.T) {
	root := execroot(t)
	whole, _ := build(t, root, false, nil)
	if !strings.Contains(whole, ".quad kind=elf,sm=90") || !strings.Contains(whole, "# static void register_k") {
		t.Fatalf("the whole host compile's object lacks the device code or the stub:\n%s", whole)
	}
	s := read(t, root, obj)
	root2 := execroot(t)
	got, msg := build(t, root2, true, nil)
	if got != s {
		t.Errorf("object through hostasm:\n%s\nwant the whole host compile's:\n%s", got, s)
	}
	if msg != "" {
		t.Errorf("host printed %q, want nothing", msg)
	}
	if ran := hostRan(t, root2); ran != "assembled" {
		t.Errorf("host %s the host code, want it assembled from hostasm's assembly", ran)
	}
	standinC := read(t, root2, standin)
	if !strings.Contains(standinC, "kind=ptx,sm=90") || strings.Contains(standinC, "kind=elf") {
		t.Errorf("the stand-in fatbinary holds other than the PTX alone:\n%s", standinC)
	}
	if a := read(t, root2, asmFile); strings.Contains(a, "kind=elf") || !strings.Contains(a, "\nfatbinData:\n") {
		t.Errorf("the host assembly has the real device code, or no fatbinData: label:\n%s", a)
	}
	// The stub's line markers name the plan's stub, as in one nvcc run.
	if strings.Contains(got, "dev/k.o.stub.c") {
		t.Errorf("the object names the device action's stub, not the plan's:\n%s", got)
	}
}

// fallsBack builds through hostasm with edit run before the host step, and
// checks that the host step compiled the host code whole, to the whole host
// compile's object, saying why (want, a part of its message).
func fallsBack(t *testing.T, what, want string, edit func(root string)) {
	t.Helper()
	whole, _ := build(t, execroot(t), false, nil)
	root := execroot(t)
	got, msg := build(t, root, true, func() { edit(root) })
	if got != whole {
		t.Errorf("object after %s:\n%s\nwant the whole host compile's:\n%s", what, got, whole)
	}
	if !strings.Contains(msg, want) || !strings.Contains(msg, "compiling the host code again") {
		t.Errorf("host printed %q after %s, want %q and that it compiles again", msg, what, want)
	}
	if ran := hostRan(t, root); ran != "compiled" {
		t.Errorf("host %s the host code after %s, want it compiled whole", ran, what)
	}
}

func TestHostCompilesWholeWhereTheStandInDiffers(t *testing.T) {
	fallsBack(t, "a stand-in of another shape", "differs from the stand-in", func(root string) {
		p := filepath.Join(root, standin)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, append(b, "// another line\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
	})
}

func TestHostCompilesWholeWithDebugInformation(t *testing.T) {
	root := execroot(t)
	whole, _ := build(t, root, false, nil, "-g")
	if !strings.Contains(whole, "# debug: fatbinData[8]") {
		t.Fatalf("the stand-in compiler wrote no debug line with -g:\n%s", whole)
	}
	root2 := execroot(t)
	got, msg := build(t, root2, true, nil, "-g")
	if got != whole {
		t.Errorf("object with -g through hostasm:\n%s\nwant the whole host compile's:\n%s", got, whole)
	}
	if msg != "" {
		t.Errorf("host printed %q, want nothing", msg)
	}
	if ran := hostRan(t, root2); ran != "compiled" {
		t.Errorf("host %s the host code, want it compiled whole", ran)
	}
	if a := read(t, root2, asmFile); !strings.HasPrefix(a, "# nvcc_split.sh: the host compile writes debug information") {
		t.Errorf("hostasm with -g wrote %q, want its note", a)
	}
}

func TestHostCompilesWholeWhereTheBinaryFatbinaryHasAnotherSize(t *testing.T) {
	fallsBack(t, "a fatbinary source that declares another size", "8-byte words of fatbinData", func(root string) {
		if err := os.WriteFile(filepath.Join(root, "wrong-size"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	})
}
