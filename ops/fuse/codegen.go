package fuse

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/driver"
)

// The generated kernel, one per spec. Every layout class covers the
// problem with one work item (a vector of VecWidth elements, or one
// element) per thread; with 64-bit indices a grid-stride loop takes over
// past the grid (the device kernel caps the grid). Inputs are loaded and widened
// to their compute type (float for float32, float16 and bfloat16, double
// for float64), every step is computed in its dtype's compute type, and
// each output is rounded once when stored. Parameters, in order: the
// outputs, the inputs, n (long long), the scalars (double each), and for
// the Strided class the merged dimensions (long long each) and each
// input's strides (long long each).

func shortHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:6])
}

func ctype(d ops.DType) string {
	switch d {
	case ops.Float64:
		return "double"
	case ops.Float16:
		return "__half"
	case ops.BFloat16:
		return "__nv_bfloat16"
	}
	return "float"
}

// computeType is the C type a dtype computes in.
func computeType(d ops.DType) string {
	if d == weak || d == ops.Float64 {
		return "double"
	}
	return "float"
}

// load widens an element of dtype d held in expr.
func load(d ops.DType, expr string) string {
	switch d {
	case ops.Float16:
		return "__half2float(" + expr + ")"
	case ops.BFloat16:
		return "__bfloat162float(" + expr + ")"
	}
	return expr
}

// round rounds a value of C type from to dtype d and returns it in d's
// storage type.
func store(d ops.DType, from, expr string) string {
	switch d {
	case ops.Float16:
		return "__float2half_rn((float)(" + expr + "))"
	case ops.BFloat16:
		return "__float2bfloat16_rn((float)(" + expr + "))"
	case ops.Float32:
		if from == "double" {
			return "(float)(" + expr + ")"
		}
	}
	return expr
}

var mathNames = map[op][2]string{ // float, double
	opExp: {"expf", "exp"}, opLog: {"logf", "log"}, opSqrt: {"sqrtf", "sqrt"}, opTanh: {"tanhf", "tanh"},
	opErf: {"erff", "erf"}, opSin: {"sinf", "sin"}, opCos: {"cosf", "cos"}, opAbs: {"fabsf", "fabs"},
	opPow: {"powf", "pow"}, opMin: {"fminf", "fmin"}, opMax: {"fmaxf", "fmax"},
}

var infix = map[op]string{opAdd: "+", opSub: "-", opMul: "*", opDiv: "/", opLt: "<", opLe: "<=", opGt: ">", opGe: ">=", opEq: "==", opNe: "!="}

// body returns the statements computing the outputs y0.. (in their compute
// types) from the inputs x0.. (in theirs) and the scalars s0...
func body(s *spec, indent string) string {
	c := s.chain
	var b strings.Builder
	for i, st := range c.steps {
		ct := computeType(s.stepType[i])
		arg := func(k int) string { // argument k of step i, in ct
			a := st.args[k]
			if computeType(s.stepType[a]) == ct {
				return fmt.Sprintf("t%d", a)
			}
			return fmt.Sprintf("(%s)t%d", ct, a)
		}
		f := 0
		if ct == "double" {
			f = 1
		}
		var e string
		switch st.kind {
		case kInput:
			e = fmt.Sprintf("x%d", st.index)
		case kConst:
			e = fmt.Sprintf("s%d", st.index)
		case kArg:
			e = fmt.Sprintf("s%d", len(c.consts)+st.index)
		case kUnary:
			switch st.op {
			case opNeg:
				e = "-" + arg(0)
			case opSigmoid:
				one := map[int]string{0: "1.0f", 1: "1.0"}[f]
				e = fmt.Sprintf("%s / (%s + %s(-%s))", one, one, mathNames[opExp][f], arg(0))
			default:
				e = fmt.Sprintf("%s(%s)", mathNames[st.op][f], arg(0))
			}
		case kBinary:
			switch {
			case st.op.comparison():
				e = fmt.Sprintf("(%s %s %s) ? (%s)1 : (%s)0", arg(0), infix[st.op], arg(1), ct, ct)
			case infix[st.op] != "":
				e = fmt.Sprintf("%s %s %s", arg(0), infix[st.op], arg(1))
			default:
				e = fmt.Sprintf("%s(%s, %s)", mathNames[st.op][f], arg(0), arg(1))
			}
		case kWhere:
			e = fmt.Sprintf("(t%d != 0) ? %s : %s", st.args[0], arg(1), arg(2))
		case kCast:
			from := fmt.Sprintf("t%d", st.args[0])
			switch st.dtype {
			case ops.Float16:
				e = fmt.Sprintf("__half2float(__float2half_rn((float)%s))", from)
			case ops.BFloat16:
				e = fmt.Sprintf("__bfloat162float(__float2bfloat16_rn((float)%s))", from)
			default:
				e = fmt.Sprintf("(%s)%s", ct, from)
			}
		case kCall:
			args := make([]string, len(st.args))
			for k := range st.args {
				args[k] = arg(k)
			}
			e = fmt.Sprintf("(%s)%s(%s)", ct, c.funcs[st.index].Name, strings.Join(args, ", "))
		}
		what := st.what
		if st.kind == kConst {
			what = "Const" // its value is a kernel argument
		}
		fmt.Fprintf(&b, "%sconst %s t%d = %s;  // %s\n", indent, ct, i, e, what)
	}
	for k, o := range c.outputs {
		fmt.Fprintf(&b, "%sy%d = %s;\n", indent, k, store(s.OutDTypes[k], computeType(s.stepType[o]), fmt.Sprintf("t%d", o)))
	}
	return b.String()
}

// generate returns the CUDA C++ source of a spec's kernel.
func generate(s *spec) string {
	c := s.chain
	idx := "int"
	if s.Index64 {
		idx = "long long"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// fuse chain %q: %d inputs, %d outputs, layout %v", c.name, c.nIn, len(c.outputs), s.Layout)
	if s.Layout == driver.Vector {
		fmt.Fprintf(&b, " (%d elements per thread)", s.VecWidth)
	}
	if s.Layout == driver.Strided {
		fmt.Fprintf(&b, " (rank %d)", s.Rank)
	}
	fmt.Fprintf(&b, ", %s indices.\n", idx)
	// Only the headers the dtypes need: NVRTC parses them on every compile.
	f16, bf16 := false, false
	for _, ds := range [][]ops.DType{s.InDTypes, s.OutDTypes, s.stepType} {
		for _, d := range ds {
			f16 = f16 || d == ops.Float16
			bf16 = bf16 || d == ops.BFloat16
		}
	}
	if f16 {
		b.WriteString("#include <cuda_fp16.h>\n")
	}
	if bf16 {
		b.WriteString("#include <cuda_bf16.h>\n")
	}
	b.WriteString("\n")
	for _, f := range c.funcs {
		fmt.Fprintf(&b, "// DeviceFunc %s\n%s\n\n", f.Name, strings.TrimSpace(f.Source))
	}
	if s.Layout == driver.Vector {
		b.WriteString("template <typename T, int N>\nstruct __align__(sizeof(T) * N) Pack { T v[N]; };\n\n")
	}
	// Parameters.
	var params []string
	for k, d := range s.OutDTypes {
		params = append(params, fmt.Sprintf("%s* __restrict__ o%d", ctype(d), k))
	}
	for j, d := range s.InDTypes {
		params = append(params, fmt.Sprintf("const %s* __restrict__ i%d", ctype(d), j))
	}
	params = append(params, "long long n_")
	for k := range len(c.consts) + c.nArg {
		params = append(params, fmt.Sprintf("double s%d", k))
	}
	if s.Layout == driver.Strided {
		for d := range s.Rank {
			params = append(params, fmt.Sprintf("long long d%d_", d))
		}
		for j := range s.InDTypes {
			for d := range s.Rank {
				params = append(params, fmt.Sprintf("long long st%d_%d", j, d))
			}
		}
	}
	fmt.Fprintf(&b, "extern \"C\" __global__ void __launch_bounds__(%d)\n%s(%s) {\n", driver.Threads, s.Entry, strings.Join(params, ",\n    "))
	fmt.Fprintf(&b, "  typedef %s I;\n  const I n = (I)n_;\n", idx)
	loop := "  const I step = (I)gridDim.x * blockDim.x;\n"
	if s.Index64 {
		loop += "  for (I g = (I)blockIdx.x * blockDim.x + threadIdx.x; g < %s; g += step) {\n"
	} else {
		loop = "  {\n    const I g = (I)blockIdx.x * blockDim.x + threadIdx.x;\n    if (g < %s) {\n"
	}
	closeLoop := "  }\n"
	if !s.Index64 {
		closeLoop = "    }\n  }\n"
	}
	switch s.Layout {
	case driver.Vector:
		N := s.VecWidth
		fmt.Fprintf(&b, "  const I nvec = n / %d;\n", N)
		fmt.Fprintf(&b, loop, "nvec")
		for j, d := range s.InDTypes {
			fmt.Fprintf(&b, "    const Pack<%s, %d> a%d = reinterpret_cast<const Pack<%s, %d>*>(i%d)[g];\n", ctype(d), N, j, ctype(d), N, j)
		}
		for k, d := range s.OutDTypes {
			fmt.Fprintf(&b, "    Pack<%s, %d> r%d;\n", ctype(d), N, k)
		}
		fmt.Fprintf(&b, "#pragma unroll\n    for (int e = 0; e < %d; e++) {\n", N)
		elem(&b, s, "a%d.v[e]", "r%d.v[e]")
		b.WriteString("    }\n")
		for k, d := range s.OutDTypes {
			fmt.Fprintf(&b, "    reinterpret_cast<Pack<%s, %d>*>(o%d)[g] = r%d;\n", ctype(d), N, k, k)
		}
		b.WriteString(closeLoop)
		// The tail: fewer than one vector, done by the first threads.
		fmt.Fprintf(&b, "  {\n    const I g = nvec * %d + (I)blockIdx.x * blockDim.x + threadIdx.x;\n    if (g < n) {\n", N)
		elem(&b, s, "i%d[g]", "o%d[g]")
		b.WriteString("    }\n  }\n")
	case driver.Linear:
		fmt.Fprintf(&b, loop, "n")
		elem(&b, s, "i%d[g]", "o%d[g]")
		b.WriteString(closeLoop)
	case driver.Strided:
		fmt.Fprintf(&b, loop, "n")
		b.WriteString("      I rest = g;\n")
		for j := range s.InDTypes {
			fmt.Fprintf(&b, "      I p%d = 0;\n", j)
		}
		for d := s.Rank - 1; d >= 0; d-- {
			if d == 0 {
				b.WriteString("      const I c0 = rest;\n")
			} else {
				fmt.Fprintf(&b, "      const I c%d = rest %% (I)d%d_;\n      rest /= (I)d%d_;\n", d, d, d)
			}
			for j := range s.InDTypes {
				fmt.Fprintf(&b, "      p%d += c%d * (I)st%d_%d;\n", j, d, j, d)
			}
		}
		elem(&b, s, "i%d[p%d]", "o%d[g]")
		b.WriteString(closeLoop)
	}
	b.WriteString("}\n")
	return b.String()
}

// elem writes the statements of one element at a thread's inner indent:
// load each input (in is the format of input j's element, given j, or j
// twice), compute, and store each output (out, given k).
func elem(b *strings.Builder, s *spec, in, out string) {
	const indent = "      "
	for j, d := range s.InDTypes {
		src := fmt.Sprintf(in, j)
		if strings.Count(in, "%d") == 2 {
			src = fmt.Sprintf(in, j, j)
		}
		fmt.Fprintf(b, "%sconst %s x%d = %s;\n", indent, computeType(d), j, load(d, src))
	}
	for k, t := range s.OutDTypes {
		fmt.Fprintf(b, "%s%s y%d;\n", indent, ctype(t), k)
	}
	b.WriteString(body(s, indent))
	for k := range s.OutDTypes {
		fmt.Fprintf(b, "%s%s = y%d;\n", indent, fmt.Sprintf(out, k), k)
	}
}

// compileOptions are the NVRTC options of the chain's kernels.
func (c *Chain) compileOptions() []string {
	o := []string{"-std=c++17"}
	if c.opts.Exact {
		o = append(o, "--fmad=false")
	}
	return o
}
