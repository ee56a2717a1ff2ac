package bpe

import (
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tiny is a byte-level vocabulary with a few merges: the 256 byte symbols
// (ids 0..255 in byte order), then the merges' results.
func tiny(t *testing.T) *Tokenizer {
	t.Helper()
	enc := byteToUnicode()
	vocab := map[string]int32{}
	for b := 0; b < 256; b++ {
		vocab[string(enc[b])] = int32(b)
	}
	sp := string(enc[' '])
	merges := [][2]string{{"l", "l"}, {"h", "e"}, {"he", "ll"}, {sp, "w"}, {"o", "r"}, {sp + "w", "or"}}
	for _, m := range merges {
		vocab[m[0]+m[1]] = int32(len(vocab))
	}
	vocab[EndOfText] = int32(len(vocab))
	tok, err := New(vocab, merges)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"Hello world", []string{"Hello", " world"}},
		{"It's  \n\nfoo 123 !! don't", []string{"It", "'s", "  \n", "\n", "foo", " 123", " !!", " don", "'t"}},
		{"a  b\tc   ", []string{"a", " ", " b", "\t", "c", "   "}},
		{"été 你好 'LL", []string{"été", " 你好", " '", "LL"}},
	} {
		if got := split(c.in); !slices.Equal(got, c.want) {
			t.Errorf("split(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEncodeDecode(t *testing.T) {
	tok := tiny(t)
	ids := tok.Encode("hello world")
	// "hello" -> he+ll (rank 2 after l l and h e) then "o"; " world" -> Ġwor, l, d.
	want := []int32{258, 'o', 261, 'l', 'd'}
	if !slices.Equal(ids, want) {
		t.Fatalf("Encode = %v, want %v", ids, want)
	}
	r := rand.New(rand.NewSource(1))
	alphabet := []rune("ab lo\n\t'sé你😀0123!?")
	for i := 0; i < 200; i++ {
		var sb strings.Builder
		for j := r.Intn(40); j > 0; j-- {
			sb.WriteRune(alphabet[r.Intn(len(alphabet))])
		}
		s := sb.String()
		got, err := tok.Decode(tok.Encode(s))
		if err != nil || got != s {
			t.Fatalf("Decode(Encode(%q)) = %q, %v", s, got, err)
		}
	}
	if _, err := tok.Decode([]int32{int32(tok.VocabSize())}); err == nil {
		t.Fatal("Decode of an id past the vocabulary: no error")
	}
	if id, ok := tok.ID(EndOfText); !ok || id != int32(tok.VocabSize()-1) {
		t.Fatalf("ID(EndOfText) = %d, %v", id, ok)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	w := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	if _, err := Load(filepath.Join(dir, "none.json"), "x"); err == nil || !strings.Contains(err.Error(), "vocabulary") {
		t.Errorf("missing vocabulary: %v", err)
	}
	if _, err := Load(w("bad.json", "[1]"), "x"); err == nil || !strings.Contains(err.Error(), "JSON object") {
		t.Errorf("bad vocabulary: %v", err)
	}
	if _, err := Load(w("small.json", `{"a": 0}`), w("m.txt", "")); err == nil || !strings.Contains(err.Error(), "byte-level") {
		t.Errorf("vocabulary without the bytes: %v", err)
	}
}
