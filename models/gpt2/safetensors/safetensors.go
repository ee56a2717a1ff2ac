// Package safetensors reads and writes the safetensors format of Hugging
// Face: an 8-byte little-endian header length, a JSON header naming each
// tensor's dtype, shape and byte range (and an optional "__metadata__"
// object of strings), then the tensors' bytes, little-endian, row-major.
// Files it writes are read by the safetensors library and by transformers'
// from_pretrained.
package safetensors

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"

	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

// ErrFormat is wrapped by every error about a file's contents.
var ErrFormat = errors.New("not a valid safetensors file")

// The dtype names this package knows, with their element sizes.
var dtypeSize = map[string]int{"F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "U16": 2, "U8": 1}

// Tensor is one tensor of a file: its dtype name ("F32", "BF16", ...), its
// shape and its bytes.
type Tensor struct {
	DType string
	Shape []int
	Data  []byte
}

// Numel returns the number of elements of the shape.
func (t Tensor) Numel() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// F32 returns a float32 Tensor of data with shape.
func F32(data []float32, shape ...int) Tensor {
	b := make([]byte, 4*len(data))
	for i, v := range data {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return Tensor{DType: "F32", Shape: slices.Clone(shape), Data: b}
}

// Float32s returns the elements as float32 (F32 exactly, BF16 and F16
// widened exactly); other dtypes are an error.
func (t Tensor) Float32s() ([]float32, error) {
	n := t.Numel()
	out := make([]float32, n)
	switch t.DType {
	case "F32":
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(t.Data[4*i:]))
		}
	case "BF16":
		for i := range out {
			out[i] = half.BFloat16(binary.LittleEndian.Uint16(t.Data[2*i:])).Float32()
		}
	case "F16":
		for i := range out {
			out[i] = half.Float16(binary.LittleEndian.Uint16(t.Data[2*i:])).Float32()
		}
	default:
		return nil, fmt.Errorf("safetensors: dtype %s cannot be read as float32 (F32, BF16 or F16 can)", t.DType)
	}
	return out, nil
}

type entry struct {
	DType   string   `json:"dtype"`
	Shape   []int    `json:"shape"`
	Offsets [2]int64 `json:"data_offsets"`
}

// Write writes tensors (and metadata, which may be nil) to path, the tensors
// in name order.
func Write(path string, tensors map[string]Tensor, metadata map[string]string) error {
	names := make([]string, 0, len(tensors))
	for n := range tensors {
		names = append(names, n)
	}
	sort.Strings(names)
	header := map[string]any{}
	if len(metadata) > 0 {
		header["__metadata__"] = metadata
	}
	var off int64
	for _, n := range names {
		t := tensors[n]
		size, ok := dtypeSize[t.DType]
		if !ok {
			return fmt.Errorf("safetensors: %s: unknown dtype %q", n, t.DType)
		}
		if want := t.Numel() * size; len(t.Data) != want {
			return fmt.Errorf("safetensors: %s: %d bytes of data, shape %v of %s needs %d", n, len(t.Data), t.Shape, t.DType, want)
		}
		shape := t.Shape
		if shape == nil {
			shape = []int{}
		}
		header[n] = entry{DType: t.DType, Shape: shape, Offsets: [2]int64{off, off + int64(len(t.Data))}}
		off += int64(len(t.Data))
	}
	hj, err := json.Marshal(header)
	if err != nil {
		return fmt.Errorf("safetensors: %w", err)
	}
	for len(hj)%8 != 0 {
		hj = append(hj, ' ')
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("safetensors: %w", err)
	}
	var lenb [8]byte
	binary.LittleEndian.PutUint64(lenb[:], uint64(len(hj)))
	if _, err := f.Write(lenb[:]); err == nil {
		_, err = f.Write(hj)
	}
	for _, n := range names {
		if err != nil {
			break
		}
		_, err = f.Write(tensors[n].Data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("safetensors: writing %s: %w", path, err)
	}
	return nil
}

// Read reads the file at path: its tensors by name and its metadata.
func Read(path string) (map[string]Tensor, map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("safetensors: %w", err)
	}
	if len(b) < 8 {
		return nil, nil, fmt.Errorf("safetensors %s: %w: %d bytes, shorter than the 8-byte header length", path, ErrFormat, len(b))
	}
	hl := binary.LittleEndian.Uint64(b)
	if hl > uint64(len(b)-8) {
		return nil, nil, fmt.Errorf("safetensors %s: %w: header of %d bytes in a file of %d (truncated?)", path, ErrFormat, hl, len(b))
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b[8:8+hl], &raw); err != nil {
		return nil, nil, fmt.Errorf("safetensors %s: %w: header is not a JSON object: %v", path, ErrFormat, err)
	}
	data := b[8+hl:]
	tensors := map[string]Tensor{}
	var meta map[string]string
	for name, r := range raw {
		if name == "__metadata__" {
			if err := json.Unmarshal(r, &meta); err != nil {
				return nil, nil, fmt.Errorf("safetensors %s: %w: __metadata__ is not an object of strings", path, ErrFormat)
			}
			continue
		}
		var e entry
		if err := json.Unmarshal(r, &e); err != nil {
			return nil, nil, fmt.Errorf("safetensors %s: %w: tensor %s: %v", path, ErrFormat, name, err)
		}
		size, ok := dtypeSize[e.DType]
		if !ok {
			return nil, nil, fmt.Errorf("safetensors %s: tensor %s has dtype %q, which this reader does not know", path, name, e.DType)
		}
		t := Tensor{DType: e.DType, Shape: e.Shape}
		lo, hi := e.Offsets[0], e.Offsets[1]
		if lo < 0 || hi < lo || hi > int64(len(data)) || hi-lo != int64(t.Numel()*size) {
			return nil, nil, fmt.Errorf("safetensors %s: %w: tensor %s (%s %v) has bytes [%d, %d) of %d (truncated or inconsistent)",
				path, ErrFormat, name, e.DType, e.Shape, lo, hi, len(data))
		}
		t.Data = data[lo:hi]
		tensors[name] = t
	}
	return tensors, meta, nil
}
