// Package bpe is GPT-2's byte-level byte-pair-encoding tokenizer, read from
// the vocabulary files GPT-2 was published with: vocab.json (called
// encoder.json in OpenAI's release: token string -> id) and merges.txt (the
// merges in priority order). It encodes text to the same ids as GPT-2's
// encoder.py and Hugging Face's GPT2Tokenizer, and decodes ids back to text.
//
// Text is split as GPT-2's pattern splits it ('s 't 're 've 'm 'll 'd,
// an optional space and letters, an optional space and digits, an optional
// space and other symbols, and runs of whitespace that leave their last
// space to the word after them); each piece's UTF-8 bytes are mapped to
// printable characters (GPT-2's byte-to-unicode table) and merged pair by
// pair, the pair earliest in merges.txt first.
package bpe

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"
)

// EndOfText is GPT-2's document separator, the last id of its vocabulary.
const EndOfText = "<|endoftext|>"

// Tokenizer encodes and decodes with one vocabulary. It is not safe for
// concurrent use (it caches the pieces it has encoded).
type Tokenizer struct {
	vocab   map[string]int32
	inverse []string
	ranks   map[[2]string]int
	byteEnc [256]rune
	byteDec map[rune]byte
	cache   map[string][]int32
}

// Load reads vocab.json and merges.txt.
func Load(vocabPath, mergesPath string) (*Tokenizer, error) {
	vb, err := os.ReadFile(vocabPath)
	if err != nil {
		return nil, fmt.Errorf("bpe: vocabulary: %w", err)
	}
	var vocab map[string]int32
	if err := json.Unmarshal(vb, &vocab); err != nil {
		return nil, fmt.Errorf("bpe: vocabulary %s is not a JSON object of token -> id: %w", vocabPath, err)
	}
	f, err := os.Open(mergesPath)
	if err != nil {
		return nil, fmt.Errorf("bpe: merges: %w", err)
	}
	defer f.Close()
	var merges [][2]string
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		s := sc.Text()
		if strings.HasPrefix(s, "#version") || s == "" {
			continue
		}
		a, b, ok := strings.Cut(s, " ")
		if !ok || a == "" || b == "" || strings.Contains(b, " ") {
			return nil, fmt.Errorf("bpe: %s:%d: %q is not a merge (two symbols separated by one space)", mergesPath, line, s)
		}
		merges = append(merges, [2]string{a, b})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("bpe: %s: %w", mergesPath, err)
	}
	return New(vocab, merges)
}

// New makes a tokenizer from a vocabulary (token string in GPT-2's
// byte-to-unicode alphabet -> id; ids 0..len-1, each once) and merges in
// priority order; every byte's symbol and every merge's result must be in
// the vocabulary.
func New(vocab map[string]int32, merges [][2]string) (*Tokenizer, error) {
	t := &Tokenizer{vocab: vocab, ranks: make(map[[2]string]int, len(merges)),
		byteDec: make(map[rune]byte, 256), cache: make(map[string][]int32)}
	t.inverse = make([]string, len(vocab))
	for s, id := range vocab {
		if id < 0 || int(id) >= len(vocab) || t.inverse[id] != "" {
			return nil, fmt.Errorf("bpe: vocabulary id %d of %q is out of range or repeated (%d tokens)", id, s, len(vocab))
		}
		t.inverse[id] = s
	}
	t.byteEnc = byteToUnicode()
	for b, r := range t.byteEnc {
		t.byteDec[r] = byte(b)
		if _, ok := vocab[string(r)]; !ok {
			return nil, fmt.Errorf("bpe: vocabulary lacks the symbol %q of byte %d: not a byte-level BPE vocabulary", r, b)
		}
	}
	for i, m := range merges {
		if _, ok := vocab[m[0]+m[1]]; !ok {
			return nil, fmt.Errorf("bpe: merge %d (%q %q) makes %q, which is not in the vocabulary", i+1, m[0], m[1], m[0]+m[1])
		}
		if _, dup := t.ranks[m]; !dup {
			t.ranks[m] = i
		}
	}
	return t, nil
}

// VocabSize returns the number of ids (50257 for GPT-2).
func (t *Tokenizer) VocabSize() int { return len(t.inverse) }

// ID returns the id of a token string such as EndOfText.
func (t *Tokenizer) ID(token string) (int32, bool) {
	id, ok := t.vocab[token]
	return id, ok
}

// Encode returns text's ids. Special tokens in the text (EndOfText) are
// encoded as the plain text they are; append their ids explicitly.
func (t *Tokenizer) Encode(text string) []int32 {
	var ids []int32
	for _, piece := range split(text) {
		if c, ok := t.cache[piece]; ok {
			ids = append(ids, c...)
			continue
		}
		c := t.encodePiece(piece)
		if len(t.cache) < 1<<16 {
			t.cache[piece] = c
		}
		ids = append(ids, c...)
	}
	return ids
}

func (t *Tokenizer) encodePiece(piece string) []int32 {
	syms := make([]string, 0, len(piece))
	for i := 0; i < len(piece); i++ {
		syms = append(syms, string(t.byteEnc[piece[i]]))
	}
	for len(syms) > 1 {
		best, at := -1, -1
		for i := 0; i+1 < len(syms); i++ {
			if r, ok := t.ranks[[2]string{syms[i], syms[i+1]}]; ok && (best < 0 || r < best) {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		a, b := syms[at], syms[at+1]
		out := syms[:0:0]
		for i := 0; i < len(syms); i++ {
			if i+1 < len(syms) && syms[i] == a && syms[i+1] == b {
				out = append(out, a+b)
				i++
			} else {
				out = append(out, syms[i])
			}
		}
		syms = out
	}
	ids := make([]int32, len(syms))
	for i, s := range syms {
		ids[i] = t.vocab[s] // every symbol is a byte's or a merge's result: checked in New
	}
	return ids
}

// Decode returns the text of ids. An id outside the vocabulary is an error;
// byte sequences that are not valid UTF-8 (a token boundary inside a
// character) decode to U+FFFD, as GPT-2's decoder does with errors="replace".
func (t *Tokenizer) Decode(ids []int32) (string, error) {
	var buf []byte
	for _, id := range ids {
		if id < 0 || int(id) >= len(t.inverse) {
			return "", fmt.Errorf("bpe: id %d is outside the vocabulary of %d tokens", id, len(t.inverse))
		}
		s := t.inverse[id]
		if s == EndOfText {
			buf = append(buf, s...)
			continue
		}
		for _, r := range s {
			buf = append(buf, t.byteDec[r])
		}
	}
	return strings.ToValidUTF8(string(buf), "\uFFFD"), nil
}

// byteToUnicode is GPT-2's table: the printable Latin-1 bytes map to
// themselves, the other 68 to U+0100 onwards, in byte order.
func byteToUnicode() [256]rune {
	var m [256]rune
	n := 0
	for b := 0; b < 256; b++ {
		if (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF) {
			m[b] = rune(b)
		} else {
			m[b] = rune(256 + n)
			n++
		}
	}
	return m
}

// split cuts text into GPT-2's pre-tokenization pieces (the regular
// expression of encoder.py, written out because Go's regexp has no
// look-ahead).
func split(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		n := pieceLen(s[i:])
		out = append(out, s[i:i+n])
		i += n
	}
	return out
}

func pieceLen(s string) int {
	if s[0] == '\'' {
		for _, c := range []string{"'s", "'t", "'re", "'ve", "'m", "'ll", "'d"} {
			if strings.HasPrefix(s, c) {
				return len(c)
			}
		}
	}
	j := 0
	if s[0] == ' ' {
		j = 1
	}
	if j < len(s) {
		r, _ := utf8.DecodeRuneInString(s[j:])
		switch {
		case unicode.IsLetter(r):
			return j + runLen(s[j:], unicode.IsLetter)
		case unicode.IsNumber(r):
			return j + runLen(s[j:], unicode.IsNumber)
		case !unicode.IsSpace(r):
			return j + runLen(s[j:], func(r rune) bool {
				return !unicode.IsSpace(r) && !unicode.IsLetter(r) && !unicode.IsNumber(r)
			})
		}
	}
	// A run of whitespace: all of it at the end of the text, else all but its
	// last character (which goes with what follows), else that one character.
	k := runLen(s, unicode.IsSpace)
	if k == len(s) {
		return k
	}
	_, last := utf8.DecodeLastRuneInString(s[:k])
	if k-last > 0 {
		return k - last
	}
	return k
}

func runLen(s string, f func(rune) bool) int {
	n := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		if !f(r) {
			break
		}
		n += size
	}
	return n
}
